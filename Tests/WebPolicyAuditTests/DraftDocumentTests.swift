import Testing
@testable import WebPolicyAudit
import WebPolicyKit

/// The draft's comments: wrapped, never a line lint would read as a suppression, never broken
/// by a control character; values written by YAMLWriter.
@Suite struct DraftDocumentTests {
    @Test func aWrappedCommentNeverStartsWithTheSuppressionMarker() {
        for padding in 0..<60 {
            let text = String(repeating: "x", count: padding) + " fix each, or suppress it at its line with the reason (// webpolicy:disable-next-line RULE -- why)"
            let lines = DraftDocument.comment(text, indent: "").split(separator: "\n")
            #expect(lines.allSatisfy { !$0.dropFirst(2).hasPrefix("webpolicy:") }, "padding \(padding): \(lines)")
            #expect(lines.allSatisfy { $0.count <= 110 })
        }
    }

    @Test func controlCharactersInACommentCannotEndIt() {
        let comment = DraftDocument.comment("a scheme named 'x\nwebpolicy: 9' by the source", indent: "  ")
        #expect(comment.split(separator: "\n").count == 1)
        #expect(comment.hasPrefix("  # a scheme named 'x webpolicy: 9'"))
    }

    @Test func itemsKeepTheirCommentsAndQuoting() {
        var document = DraftDocument()
        document.add("name", .string("home-assistant+iOS"))
        document.add("bridges", items: [(["decide: who calls it"], .object([("name", .string("a: b")), ("origins", .array([]))]))], comments: ["From the code."])
        #expect(document.text == "name: 'home-assistant+iOS'\n\n# From the code.\nbridges:\n  # decide: who calls it\n  - name: 'a: b'\n    origins: []\n")
    }
}
