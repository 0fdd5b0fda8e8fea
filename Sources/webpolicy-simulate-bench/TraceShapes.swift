import Foundation

/// The same realistic requests written the other ways traces come: each subresource line
/// carrying its page as `top=URL` (a proxy log, a HAR export, a test generator), and a mix of
/// that with page lines and with iframe loads (`frame=URL` after a child document). The
/// `top=` form asks for the very same decisions as the page-line form.
enum TraceShapes {
    /// Every subresource line with its page as `top=`; page lines kept (they are requests).
    static func topForm(_ lines: [Substring]) -> [String] {
        var page = ""
        return lines.map { line in
            if line.hasPrefix("page ") {
                page = String(line.dropFirst(5))
                return String(line)
            }
            return page.isEmpty ? String(line) : "\(line) top=\(page)"
        }
    }

    /// Half the pages' subresources under their page line, half with `top=`; the three lines
    /// after a child document as that iframe's loads (`frame=`).
    static func mixedForm(_ lines: [Substring]) -> [String] {
        var page = ""
        var pageCount = 0
        var frame = ""
        var frameLinesLeft = 0
        return lines.map { line in
            if line.hasPrefix("page ") {
                page = String(line.dropFirst(5))
                pageCount += 1
                frameLinesLeft = 0
                return String(line)
            }
            var written = String(line)
            if pageCount % 2 == 0, !page.isEmpty { written += " top=\(page)" }
            if frameLinesLeft > 0 {
                written += " frame=\(frame)"
                frameLinesLeft -= 1
            }
            if line.hasPrefix("child-document "), let url = line.split(separator: " ").dropFirst().first {
                frame = String(url)
                frameLinesLeft = 3
            }
            return written
        }
    }

    /// HAR's `_resourceType` for each trace type the realistic trace uses (Chrome's names).
    static let harTypes = ["page": "document", "child-document": "document", "script": "script", "image": "image", "style-sheet": "stylesheet",
                           "font": "font", "media": "media", "fetch": "fetch", "ping": "ping", "other": "other"]

    /// The requests as a browser's HAR export writes them (Chrome's members, about 600 bytes
    /// an entry, one a line): each page a `pages` item and a document entry, each subresource
    /// an entry of that page. A ping carries what hyperlink auditing sends, as it must to stay
    /// a ping. Written as it is made: a million requests are 600 MB.
    static func writeHAR(_ lines: [Substring], to path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? output.close() }
        var pending = ""
        func emit(_ text: String) throws {
            pending += text
            if pending.utf8.count > 1 << 20 {
                try output.write(contentsOf: Data(pending.utf8))
                pending = ""
            }
        }
        // Pages first, as browsers write them.
        let titles = lines.filter { $0.hasPrefix("page ") }.map { $0.split(separator: " ")[1] }
        try emit("{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"WebInspector\", \"version\": \"537.36\"}, \"pages\": [\n")
        try emit(titles.enumerated().map { "{\"startedDateTime\": \"2026-11-20T09:15:02.118Z\", \"id\": \"page_\($0.offset)\", \"title\": \"\($0.element)\", \"pageTimings\": {\"onContentLoad\": 612.5, \"onLoad\": 1408.9}}" }.joined(separator: ",\n"))
        try emit("\n], \"entries\": [\n")
        var pageCount = 0
        var first = true
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let type = harTypes[String(fields[0])] else { continue }
            if fields[0] == "page" { pageCount += 1 }
            let host = fields[1].split(separator: "/").dropFirst().first ?? ""
            let ping = type == "ping" ? ", {\"name\": \"ping-to\", \"value\": \"https://\(host)/\"}" : ""
            try emit((first ? "" : ",\n") + "{\"_initiator\": {\"type\": \"parser\"}, \"_priority\": \"High\", \"_resourceType\": \"\(type)\", \"cache\": {}, \"connection\": \"443\", \"pageref\": \"page_\(max(0, pageCount - 1))\", "
                + "\"request\": {\"method\": \"GET\", \"url\": \"\(fields[1])\", \"httpVersion\": \"h2\", \"headers\": [{\"name\": \":authority\", \"value\": \"\(host)\"}, {\"name\": \"accept\", \"value\": \"*/*\"}\(ping)], \"queryString\": [], \"cookies\": [], \"headersSize\": -1, \"bodySize\": 0}, "
                + "\"response\": {\"status\": 200, \"statusText\": \"\", \"httpVersion\": \"h2\", \"headers\": [{\"name\": \"content-type\", \"value\": \"text/plain\"}], \"cookies\": [], \"content\": {\"size\": 1234, \"mimeType\": \"text/plain\"}, \"redirectURL\": \"\", \"headersSize\": -1, \"bodySize\": 1234}, "
                + "\"serverIPAddress\": \"93.184.216.34\", \"startedDateTime\": \"2026-11-20T09:15:02.118Z\", \"time\": 48.2, \"timings\": {\"blocked\": 1.2, \"dns\": -1, \"ssl\": -1, \"connect\": -1, \"send\": 0.1, \"wait\": 40.2, \"receive\": 2.1}}")
            first = false
        }
        try emit("\n]}}\n")
        try output.write(contentsOf: Data(pending.utf8))
    }

    static func write(_ lines: [String], to path: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}
