import Testing
@testable import WebPolicyKit
import WebPolicyRuntime

/// Findings of the policy fuzz target (ci/fuzz/Sources/FuzzPolicy), each with its minimised
/// input; the reproducers are in ci/fuzz/regressions/FuzzPolicy, which every fuzz run replays.
@Suite("Fuzz findings: policies")
struct FuzzFindingsTests {
    /// Every finding, and every note, lies inside the file it names.
    static func expectInside(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let report = Linter().lint(text: text, path: "fuzz.yaml")
        let file = SourceFile(path: "fuzz.yaml", text: text)
        for diagnostic in report.diagnostics {
            for location in [diagnostic.location] + diagnostic.notes.compactMap(\.location) where location.path == "fuzz.yaml" {
                #expect(location.range.start.line <= file.lineCount && location.range.end.line <= file.lineCount,
                        "\(diagnostic.ruleID) at \(location.range.start)–\(location.range.end) in a \(file.lineCount)-line file", sourceLocation: sourceLocation)
                #expect(location.range.start.column <= file.line(location.range.start.line).count + 1, sourceLocation: sourceLocation)
            }
        }
    }

    /// libyaml puts the end of a stream without a final line break on a line of its own: the
    /// empty value of a `? key` there was placed at 3:1 of a 2-line file.
    @Test func anEmptyValueAtTheEndOfTheFileIsPlacedAtItsEnd() {
        Self.expectInside("webpolicy:\n ? - horedirect-fragment")
        Self.expectInside("webpolicy: 1\nname: x\nhttp-allowlist:\n  - ? host")
        let root = YAMLComposer.compose(SourceFile(path: "f.yaml", text: "a:\n ? - b")).root
        let value = root?.mapping?.first?.value.mapping?.first?.value
        #expect(value?.range.start == SourcePosition(line: 2, column: 7))
    }
}
