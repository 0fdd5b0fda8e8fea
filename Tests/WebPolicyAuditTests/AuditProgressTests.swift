import Foundation
import Testing
import WebPolicyAudit
import WebPolicyKit

@Suite("Progress of an audit")
struct AuditProgressTests {
    /// The audit reads files on every core; the line a terminal would show counts them all.
    @Test func theAppsFilesAreCountedAsTheyAreRead() throws {
        let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/audit/objc-legacy/app").path
        final class Clock: @unchecked Sendable { var time = 0.0 }
        let clock = Clock()
        nonisolated(unsafe) var drawn: [String] = []
        let display = ProgressDisplay(delay: 1, now: { clock.time }, width: { 200 }, write: { drawn.append($0) })
        var auditor = Auditor(swiftReader: AuditHarness.swiftReader)
        auditor.progress = display
        let reading = try auditor.read(paths: [app])
        clock.time = 2
        display.tick()
        let files = reading.tree.files.count
        #expect(files > 1)
        #expect(drawn == ["\r\u{1B}[2Kreading the app  100%  \(files) of \(files) files  \(Int((Double(files) / 2).rounded()))/s"])
    }
}
