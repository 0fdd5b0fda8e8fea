import Foundation
import Testing
@testable import WebPolicyLSP

/// The server reads a message's body with webpolicy's own JSON reader: what it makes of a body
/// is what Foundation's `JSONSerialization` makes of it.
@Suite("webpolicy lsp: message bodies")
struct MessageBodyTests {
    static let bodies = [
        #"{"jsonrpc":"2.0","id":7,"method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p.yaml","version":12},"contentChanges":[{"text":"webpolicy: 1\nname: \"é 日本 \ud83d\ude00\"\n\ttab\\"}]}}"#,
        #"{"id":"a-string-id","method":"textDocument/hover","params":{"position":{"line":0,"character":3},"flag":true,"none":null,"ratio":0.5,"big":-12}}"#,
        #"{"method":"x","params":{"k":1,"k":2}}"#,
    ]

    @Test(arguments: bodies)
    func aBodyReadsAsFoundationReadsIt(body: String) throws {
        let ours = try #require(MessageBody.object(Array(body.utf8)))
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(NSDictionary(dictionary: ours).isEqual(to: foundation))
        // Whole numbers come as Int, as the server reads ids, versions and positions.
        if let id = foundation["id"] as? Int { #expect(ours["id"] as? Int == id) }
    }

    @Test func whatIsNoObjectIsNil() {
        #expect(MessageBody.object(Array("[1, 2]".utf8)) == nil)
        #expect(MessageBody.object(Array("{\"unclosed\": ".utf8)) == nil)
        #expect(MessageBody.object([]) == nil)
    }

    @Test func strayBytesInAStringAreReadAsReplacementCharacters() throws {
        let body: [UInt8] = Array(#"{"method":"m","params":{"text":"a"#.utf8) + [0xFF, 0xFE] + Array(#"b"}}"#.utf8)
        let object = try #require(MessageBody.object(body))
        #expect((object["params"] as? [String: Any])?["text"] as? String == "a\u{FFFD}\u{FFFD}b")
    }
}
