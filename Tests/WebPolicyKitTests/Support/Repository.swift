import Foundation
import Testing

/// Paths into the repository and golden-file comparison with a record mode, as SwiftLint's
/// reporter tests do: with `WEBPOLICY_RECORD=1` a mismatching golden file is rewritten (and the
/// test still fails, so the diff gets reviewed).
enum Repository {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static var isRecording: Bool { ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" }

    static func read(_ relative: String) -> String? {
        try? String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// Compares `actual` with the golden file; records it when asked to.
    static func assertGolden(_ actual: String, _ relative: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = read(relative)
        if expected == actual { return }
        if isRecording {
            try? FileManager.default.createDirectory(atPath: path((relative as NSString).deletingLastPathComponent), withIntermediateDirectories: true)
            try? actual.write(toFile: path(relative), atomically: true, encoding: .utf8)
            Issue.record("recorded \(relative); review the diff and run the tests again", sourceLocation: sourceLocation)
            return
        }
        guard let expected else {
            Issue.record("missing golden file \(relative); run the tests with WEBPOLICY_RECORD=1 to create it", sourceLocation: sourceLocation)
            return
        }
        Issue.record("""
        \(relative) differs from the output (run with WEBPOLICY_RECORD=1 to update):
        \(firstDifference(expected, actual))
        """, sourceLocation: sourceLocation)
    }

    private static func firstDifference(_ expected: String, _ actual: String) -> String {
        let expectedLines = expected.components(separatedBy: "\n")
        let actualLines = actual.components(separatedBy: "\n")
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let lhs = index < expectedLines.count ? expectedLines[index] : "<end of file>"
            let rhs = index < actualLines.count ? actualLines[index] : "<end of output>"
            if lhs != rhs { return "line \(index + 1):\n  expected: \(lhs)\n  actual:   \(rhs)" }
        }
        return "(whitespace at the end)"
    }
}
