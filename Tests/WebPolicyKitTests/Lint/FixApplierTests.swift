import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("fix applier")
struct FixApplierTests {
    static let file = SourceFile(path: "p.yaml", text: "a: One\nb: Two\n")

    static func edit(_ line: Int, _ start: Int, _ end: Int, _ text: String) -> TextEdit {
        TextEdit(range: SourceRange(start: SourcePosition(line: line, column: start), end: SourcePosition(line: line, column: end)), replacement: text)
    }

    @Test func appliesEditsInPositionOrder() {
        let fixes = [Fix("b", edits: [Self.edit(2, 4, 7, "two")]), Fix("a", edits: [Self.edit(1, 4, 7, "one")])]
        let (text, applied) = FixApplier.apply(fixes, to: Self.file)
        #expect(text == "a: one\nb: two\n")
        #expect(applied == 2)
    }

    @Test func aFixThatOverlapsATakenOneWaitsWhole() {
        let first = Fix("first", edits: [Self.edit(1, 4, 7, "one")])
        let clashing = Fix("second", edits: [Self.edit(2, 4, 7, "two"), Self.edit(1, 5, 6, "N")])
        let (text, applied) = FixApplier.apply([first, clashing], to: Self.file)
        #expect(text == "a: one\nb: Two\n")  // the second fix's other edit is not made either
        #expect(applied == 1)
    }

    @Test func anEditTwoFixesShareIsMadeOnce() {
        let insertion = Self.edit(1, 7, 7, "\nsecure: true")
        let (text, applied) = FixApplier.apply([Fix("x", edits: [insertion]), Fix("y", edits: [insertion])], to: Self.file)
        #expect(text == "a: One\nsecure: true\nb: Two\n")
        #expect(applied == 2)
    }
}
