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

    static func write(_ lines: [String], to path: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}
