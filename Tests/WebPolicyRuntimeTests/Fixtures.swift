import Foundation
import TestSupport

/// Paths of the repository's fixtures, and golden-file comparison (record with WEBPOLICY_RECORD=1).
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static var isRecording: Bool { ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" }

    /// nil when `actual` is the golden file's text (or was recorded); else what differs.
    static func compare(_ actual: String, golden relative: String) -> String? {
        let url = url(relative)
        if isRecording {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else { return "\(relative) is missing (record it with WEBPOLICY_RECORD=1)" }
        guard expected != actual else { return nil }
        let left = expected.components(separatedBy: "\n"), right = actual.components(separatedBy: "\n")
        let line = Array(zip(left, right)).firstIndex { $0 != $1 } ?? min(left.count, right.count)
        return "\(relative) differs from the output at line \(line + 1) (run with WEBPOLICY_RECORD=1 to update):\n  expected: \(line < left.count ? left[line] : "<end>")\n  actual:   \(line < right.count ? right[line] : "<end>")"
    }

    /// A copy of a fixture folder in a fresh temporary folder, to break on purpose.
    static func scratchCopy(of relative: String) throws -> URL {
        let folder = TemporaryFolder.location("webpolicy-runtime")
        try FileManager.default.copyItem(at: url(relative), to: folder)
        return folder
    }
}
