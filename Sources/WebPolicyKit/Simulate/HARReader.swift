import Foundation
import WebPolicyRuntime

/// Reads a HAR 1.2 capture (Safari's Web Inspector exports one, as do other browsers) as a
/// trace: each entry's request URL and method, its page's main document as top document, the
/// resource type from `_resourceType` when the exporter writes one, else from the response's
/// MIME type. HAR entries carry no expectations. Lines in results are the entries' lines in
/// the HAR file.
public enum HARReader {
    public static func read(_ file: SourceFile) -> (trace: Trace, problems: [TraceParser.Problem]) {
        var trace = Trace(file: file, entries: [])
        var problems: [TraceParser.Problem] = []
        let root: JSONNode
        switch JSONDocument.parse(file.text) {
        case .failure(let error):
            return (trace, [TraceParser.Problem(message: error.message, range: SourceRange(at: error.position))])
        case .success(let node):
            root = node
        }
        guard let log = root.member("log"), log.members != nil else {
            return (trace, [TraceParser.Problem(message: "a HAR file is an object with a 'log' object", range: root.range)])
        }
        guard let entries = log.member("entries")?.array else {
            return (trace, [TraceParser.Problem(message: "the log has no 'entries' array", range: log.range)])
        }
        // Safari names a page after its main document's URL; other exporters use the title.
        var pageTitles: [String: String] = [:]
        for page in log.member("pages")?.array ?? [] {
            if let id = page.member("id")?.string { pageTitles[id] = page.member("title")?.string ?? "" }
        }
        var topOfPage: [String: CanonicalURL] = [:]
        for entry in entries {
            guard let request = entry.member("request"), let urlNode = request.member("url"), let urlText = urlNode.string else {
                problems.append(TraceParser.Problem(message: "an entry without request.url", range: entry.range))
                continue
            }
            let url: CanonicalURL
            switch CanonicalURL.parse(urlText) {
            case .failure(let error):
                problems.append(TraceParser.Problem(message: "the URL '\(urlText)' does not parse: \(error.message)", range: urlNode.range))
                continue
            case .success(let parsed):
                url = parsed
            }
            if url.scheme == "data" { continue }  // WebKit never evaluates data: loads (`actionsForResourceLoad`)
            let method = request.member("method")?.string.flatMap { $0.isEmpty ? nil : $0.uppercased() }
            let mimeType = entry.member("response")?.member("content")?.member("mimeType")?.string ?? ""
            var type = resourceType(declared: entry.member("_resourceType")?.string, mimeType: mimeType)
            if type == .ping && !isHyperlinkAudit(request) { type = .other }
            let page = entry.member("pageref")?.string ?? ""
            var traceEntry = TraceEntry(line: entry.range.start.line, kind: .resource, typeName: type.rawValue, resourceType: type, url: url,
                                        urlRange: urlNode.range, top: nil, method: method == "GET" ? nil : method)
            if topOfPage[page] == nil, type == .document || type == .topDocument || pageTitles[page] == urlText {
                traceEntry.kind = .page
                traceEntry.typeName = "page"
                traceEntry.resourceType = .topDocument
                topOfPage[page] = url
            } else {
                traceEntry.top = topOfPage[page]
                if type == .document { (traceEntry.typeName, traceEntry.resourceType) = ("child-document", .childDocument) }
            }
            trace.entries.append(traceEntry)
        }
        return (trace, problems)
    }

    /// Chrome's HAR types `navigator.sendBeacon` as `ping`, like `<a ping>`; WebKit gives a
    /// beacon's load the type `other` (observed on a real WebKit: the `fact-pings` group of
    /// ci/webkit-conformance/facts.json blocks `beacon-as-other` and not `beacon-as-ping`). A
    /// hyperlink-auditing ping is told apart by what HTML makes it send: a `Ping-To` header
    /// and a `text/ping` body (HTML, "hyperlink auditing").
    static func isHyperlinkAudit(_ request: JSONNode) -> Bool {
        if request.member("postData")?.member("mimeType")?.string?.lowercased().hasPrefix("text/ping") == true { return true }
        return (request.member("headers")?.array ?? []).contains { header in
            header.member("name")?.string?.lowercased() == "ping-to"
        }
    }

    /// Chrome's `_resourceType` names, else the MIME type (WebKit's own classes, `toResourceType`).
    static func resourceType(declared: String?, mimeType: String) -> ResourceType {
        switch declared?.lowercased() {
        case "document": return .document
        case "stylesheet": return .styleSheet
        case "image": return .image
        case "media", "texttrack": return .media
        case "font": return .font
        case "script": return .script
        case "xhr", "fetch", "eventsource": return .fetch
        case "websocket": return .websocket
        case "ping": return .ping
        case "csp-report", "cspviolationreport": return .cspReport
        case nil: break
        default: return .other
        }
        let mime = mimeType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        switch mime {
        case "text/html", "application/xhtml+xml": return .document
        case "text/css": return .styleSheet
        case "image/svg+xml": return .image
        case "text/vtt": return .media
        case "application/json", "text/plain", "application/xml", "text/xml": return .fetch
        default: break
        }
        if mime.hasPrefix("image/") { return .image }
        if mime.hasPrefix("font/") || mime.contains("font-woff") || mime == "application/vnd.ms-fontobject" { return .font }
        if mime.hasPrefix("audio/") || mime.hasPrefix("video/") { return .media }
        if mime.contains("javascript") || mime.contains("ecmascript") { return .script }
        return .other
    }

    /// The replayed entries as a trace file, with their verdicts as expectations.
    public static func traceText(_ results: [RequestResult], policyReference: String?, source: String) -> String {
        var text = "# Recorded from \(source) by webpolicy simulate --record.\n"
        if let policyReference { text += "policy: \(policyReference)\n" }
        var top: CanonicalURL?
        for result in results {
            let entry = result.entry
            var fields = [entry.typeName, entry.url.description]
            if entry.kind == .resource, let entryTop = entry.top, entryTop != top { fields.append("top=\(entryTop)") }
            if let method = entry.method { fields.append("method=\(method)") }
            fields.append("expect=\(result.verdict.rawValue)")
            if entry.kind == .page { top = entry.url }
            text += fields.joined(separator: " ") + "\n"
        }
        return text
    }
}
