import Testing
import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("exclude patterns")
struct PathGlobTests {
    @Test(arguments: [
        ("generated", "generated/a.yaml", true),
        ("generated/", "generated/deep/a.yaml", true),
        ("generated", "src/generated/a.yaml", false),
        ("**/generated", "src/generated/a.yaml", true),
        ("*.draft.yaml", "a.draft.yaml", true),
        ("*.draft.yaml", "team/a.draft.yaml", false),
        ("**/*.draft.yaml", "team/x/a.draft.yaml", true),
        ("team/*/a.yaml", "team/x/a.yaml", true),
        ("team/*/a.yaml", "team/x/y/a.yaml", false),
        ("team/**/a.yaml", "team/a.yaml", true),
        ("./policies/p?.yaml", "policies/p1.yaml", true),
        ("policies/p?.yaml", "policies/p10.yaml", false),
        ("**", "anything/at/all.yaml", true),
    ])
    func matches(pattern: String, path: String, expected: Bool) {
        #expect(PathGlob(pattern).matches(path) == expected, "\(pattern) on \(path)")
    }

    @Test func manyStarsDoNotBacktrackForever() {
        let pattern = PathGlob(String(repeating: "*a", count: 40) + "b")
        #expect(!pattern.matches(String(repeating: "a", count: 200)))
    }
}
