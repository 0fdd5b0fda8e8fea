import Foundation
import Testing
import WebPolicyRuntime

/// Strings with escapes take the reader's careful path (a blocklist's url-filters nearly all
/// escape a dot): decoded to the same text Foundation's parser gives, and what follows them
/// placed at its own column.
@Suite("JSON strings with escapes")
struct JSONStringDecodingTests {
    /// Escaped JSON literals and what they decode to.
    static let literals: [(literal: String, decoded: String)] = [
        (#"ads\\.example"#, #"ads\.example"#),
        (#"^[^:]+:\/\/+([^\/]+\\.)?x\\.com[\/:]"#, #"^[^:]+://+([^/]+\.)?x\.com[/:]"#),
        (#"\"\\\/\b\f\n\r\t"#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#"caf\u00e9 \u00E9"#, "café é"),
        (#"\ud83d\ude00 smile"#, "😀 smile"),
        (#"lone \ud800 high"#, "lone \u{FFFD} high"),
        (#"high then other \ud800\u0041"#, "high then other \u{FFFD}A"),
        (#"é before \n é after"#, "é before \n é after"),
        (#"\u0000nul"#, "\u{0}nul"),
        (#"trailing\\"#, #"trailing\"#),
    ]

    @Test(arguments: literals.indices)
    func anEscapedStringDecodesAsFoundationDecodesIt(index: Int) throws {
        let (literal, decoded) = Self.literals[index]
        let text = "[\"\(literal)\", 7]"
        let root = try JSONDocument.parse(text).get()
        let items = try #require(root.array)
        #expect(items[0].string == decoded)
        if !literal.contains(#"\ud800"#) {
            let foundation = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])
            #expect(foundation.first as? String == decoded)
        }
        // The number after the string starts two columns after its closing quote (`, `).
        let columns = literal.unicodeScalars.count + 2
        #expect(items[0].range.end == SourcePosition(line: 1, column: 2 + columns))
        #expect(items[1].range.start == SourcePosition(line: 1, column: 4 + columns))
    }

    @Test(arguments: [#"["a\x"]"#, #"["\u12G4"]"#, #"["abc\"#, "[\"a\\.b\u{1}\"]"])
    func aBrokenEscapeIsASyntaxError(text: String) {
        guard case .failure = JSONDocument.parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
    }
}
