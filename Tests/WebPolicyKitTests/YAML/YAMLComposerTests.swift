import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("YAML composer")
struct YAMLComposerTests {
    /// A tag webpolicy does not know is reported once, where it is written; `!!str` is fine.
    @Test func applicationTagsAreReported() {
        let file = SourceFile(path: "t.yaml", text: "a: !!str 1\nb: !custom x\n")
        let (root, diagnostics) = YAMLComposer.compose(file)
        #expect(root?.mapping?.count == 2)
        #expect(diagnostics.map(\.ruleID) == ["yaml-tag"])
        #expect(diagnostics.first?.location.range.start == SourcePosition(line: 2, column: 4))
    }
}
