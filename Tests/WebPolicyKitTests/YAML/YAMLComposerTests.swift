import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("YAML composer")
struct YAMLComposerTests {
    /// libyaml's marks count scalars; the composer counts them eight bytes at a time.
    @Test func scalarCountCountsWhatUnicodeScalarsCounts() {
        let alphabet: [Unicode.Scalar] = ["a", "\n", "é", "\u{80}", "\u{7FF}", "\u{800}", "€", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{10FFFF}", "\u{0}"]
        var random = SplitMix64(state: 3)
        for _ in 0..<1_000 {
            let length = Int(random.next() % 40)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
            #expect(YAMLComposer.scalarCount(text) == text.unicodeScalars.count, "\(text.debugDescription)")
        }
    }

    /// A tag webpolicy does not know is reported once, where it is written; `!!str` is fine.
    @Test func applicationTagsAreReported() {
        let file = SourceFile(path: "t.yaml", text: "a: !!str 1\nb: !custom x\n")
        let (root, diagnostics) = YAMLComposer.compose(file)
        #expect(root?.mapping?.count == 2)
        #expect(diagnostics.map(\.ruleID) == ["yaml-tag"])
        #expect(diagnostics.first?.location.range.start == SourcePosition(line: 2, column: 4))
    }
}
