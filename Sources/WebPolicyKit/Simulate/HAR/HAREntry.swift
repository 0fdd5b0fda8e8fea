import Foundation
import WebPolicyRuntime

/// What one HAR entry says about its request, read on any core: everything but which page it
/// belongs to, which depends on the entries before it (`HARStream` puts them together in order).
struct HAREntry: Sendable {
    var line: Int
    var url: CanonicalURL
    var urlText: String
    var urlRange: SourceRange
    var method: String?
    var type: ResourceType
    var pageref: String
    /// Where a redirect response sends its request (`redirectURL` of a 3xx), as written.
    var redirectTarget: String?

    static func redirectTarget(status: Double?, location: String?) -> String? {
        guard let status, (300..<400).contains(status), let location, !location.isEmpty else { return nil }
        return location
    }

    enum Reading: Sendable {
        case request(HAREntry)
        /// A `data:` URL: WebKit never evaluates such loads (`actionsForResourceLoad`).
        case dataURL
        case problem(TraceParser.Problem)

        /// The reading of an entry read as if at 1:1, put where the entry starts.
        func placed(after start: SourcePosition) -> Reading {
            switch self {
            case .dataURL:
                return self
            case .problem(var problem):
                problem.range = problem.range.placed(after: start)
                return .problem(problem)
            case .request(var request):
                request.line = start.line
                request.urlRange = request.urlRange.placed(after: start)
                return .request(request)
            }
        }
    }

    /// The entry's JSON text, `range` of `bytes`, whose first byte is at `start` in the file.
    /// `skimming`: read without building the tree where it can (`HAREntrySkim`); the tests
    /// turn it off to hold the two readings to the same answers.
    static func read(_ bytes: [UInt8], _ range: Range<Int>, at start: SourcePosition, skimming: Bool = true) -> Reading {
        if skimming, let skimmed = bytes.withUnsafeBufferPointer({ buffer in HAREntrySkim.read(buffer, range).flatMap { skimmed($0, in: buffer, range, at: start) } }) {
            return skimmed
        }
        let entry: JSONNode
        switch JSONDocument.parse(bytes: bytes, in: range, startingAt: start) {
        case .failure(let error):
            return .problem(TraceParser.Problem(message: error.message, range: SourceRange(at: error.position)))
        case .success(let node):
            entry = node
        }
        guard let request = entry.member("request"), let urlNode = request.member("url"), let urlText = urlNode.string else {
            return .problem(TraceParser.Problem(message: "an entry without request.url", range: entry.range))
        }
        let url: CanonicalURL
        switch CanonicalURL.parse(urlText) {
        case .failure(let error):
            return .problem(TraceParser.Problem(message: "the URL '\(urlText)' does not parse: \(error.message)", range: urlNode.range))
        case .success(let parsed):
            url = parsed
        }
        if url.scheme == "data" { return .dataURL }
        let method = request.member("method")?.string.flatMap { $0.isEmpty ? nil : $0.uppercased() }
        let mimeType = entry.member("response")?.member("content")?.member("mimeType")?.string ?? ""
        var type = resourceType(declared: entry.member("_resourceType")?.string, mimeType: mimeType)
        if type == .ping && !isHyperlinkAudit(request) { type = .other }
        let response = entry.member("response")
        return .request(HAREntry(line: entry.range.start.line, url: url, urlText: urlText, urlRange: urlNode.range,
                                 method: method == "GET" ? nil : method, type: type, pageref: entry.member("pageref")?.string ?? "",
                                 redirectTarget: redirectTarget(status: response?.member("status")?.number, location: response?.member("redirectURL")?.string)))
    }

    /// An entry the skim read: nil where the full parse must say what is wrong (no URL, one
    /// that does not parse) or look further (a ping's headers).
    private static func skimmed(_ fields: HAREntrySkim.Fields, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at start: SourcePosition) -> Reading? {
        func text(_ field: Range<Int>?) -> String? { field.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } }
        guard let urlBytes = fields.url, let urlText = text(urlBytes), case .success(let url) = CanonicalURL.parse(urlText) else { return nil }
        if url.scheme == "data" { return .dataURL }
        let type = resourceType(declared: text(fields.resourceType), mimeType: text(fields.mimeType) ?? "")
        guard type != .ping else { return nil }
        let method = text(fields.method).flatMap { $0.isEmpty ? nil : $0.uppercased() }
        // The URL's place, quotes included, counted on from the entry's start.
        var counter = JSONPositionCounter()
        counter.advance(over: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<(urlBytes.lowerBound - 1)]))
        let urlStart = counter.position(after: start)
        counter.advance(over: UnsafeBufferPointer(rebasing: bytes[(urlBytes.lowerBound - 1)..<(urlBytes.upperBound + 1)]))
        return .request(HAREntry(line: start.line, url: url, urlText: urlText, urlRange: SourceRange(start: urlStart, end: counter.position(after: start)),
                                 method: method == "GET" ? nil : method, type: type, pageref: text(fields.pageref) ?? "",
                                 redirectTarget: redirectTarget(status: text(fields.status).flatMap(Double.init), location: text(fields.redirectURL))))
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
}
