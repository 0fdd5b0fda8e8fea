import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

@Suite("css-display-none selector check")
struct CSSSelectorCheckTests {
    @Test(arguments: [
        ".banner", "#a, .b > c", "a[title=\"x, y\"]", "a[title='(']", ".x:not(.y, .z)", "div\\,x",
        "iframe[src*=\"ads\"]:nth-child(2n+1)", "  .padded  ",
    ])
    func accepted(selector: String) {
        #expect(CSSSelectorCheck.problem(in: selector) == nil)
    }

    @Test(arguments: [
        ("", 0), ("   ", 0), ("\t\n\u{0B}\u{0C}\r", 0), ("\u{A0}\u{2003}\u{3000}", 0), ("a[", 1), ("a]", 1), ("(a", 0), ("a)", 1), ("a[x=\"y]", 4),
        (", a", 0), ("a,, b", 2), ("a, b,", 4), ("a\\", 1), ("a:not(b]", 7),
    ])
    func refused(selector: String, offset: Int) {
        #expect(CSSSelectorCheck.problem(in: selector)?.offset == offset, "\(selector)")
    }
}
