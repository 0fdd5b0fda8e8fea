import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// HAR entries typed as WebKit types the loads they record.
@Suite("HAR reader")
struct HARReaderTests {
    static func entry(_ url: String, type: String, headers: String = "[]", body: String? = nil) -> String {
        let postData = body.map { #", "postData": {"mimeType": "\#($0)", "text": "x"}"# } ?? ""
        return #"{"pageref": "page_1", "_resourceType": "\#(type)", "request": {"method": "POST", "url": "\#(url)", "headers": \#(headers)\#(postData)}, "response": {"content": {"mimeType": "text/plain"}}}"#
    }

    /// Chrome's HAR calls a `navigator.sendBeacon` a `ping`, as it calls `<a ping>`; WebKit
    /// checks a beacon as `other` (ci/webkit-conformance/facts.json, `fact-pings`), a
    /// hyperlink audit as `ping`.
    @Test func beaconsAreOtherAndHyperlinkAuditsArePings() {
        let har = """
        {"log": {"pages": [{"id": "page_1", "title": "https://news.example.com/"}], "entries": [
        {"pageref": "page_1", "_resourceType": "document", "request": {"method": "GET", "url": "https://news.example.com/"}, "response": {"content": {"mimeType": "text/html"}}},
        \(Self.entry("https://b.example/beacon", type: "ping", body: "application/json")),
        \(Self.entry("https://p.example/audit", type: "ping", headers: #"[{"name": "Ping-To", "value": "https://news.example.com/a"}]"#, body: "text/ping")),
        \(Self.entry("https://p.example/audit-header-only", type: "ping", headers: #"[{"name": "ping-to", "value": "https://x.example/"}]"#)),
        \(Self.entry("https://p.example/audit-body-only", type: "ping", body: "text/ping"))
        ]}}
        """
        let (trace, problems) = HARReader.read(SourceFile(path: "c.har", text: har))
        #expect(problems.isEmpty)
        #expect(trace.entries.map(\.typeName) == ["page", "other", "ping", "ping", "ping"])
        #expect(trace.entries.map(\.resourceType) == [.topDocument, .other, .ping, .ping, .ping])
    }
}
