import Foundation
import TestSupport
import WebPolicyAudit
import WebPolicyAuditSwift
import WebPolicyKit
import WebPolicyRuntime

/// Writes an example app into a temporary folder, with its `↓` markers taken out and
/// remembered as file:line:col, and audits it as the command line does.
enum AuditHarness {
    struct Result {
        var diagnostics: [Diagnostic]
        var markers: [String]
        var report: LintReport
        /// The temporary folder the example was written into.
        var root: String
    }

    static let swiftReader: Auditor.SwiftReader = { bytes, path in SwiftFactReader.read(bytes, path: path) }

    static func audit(_ example: CodeExample, options: Auditor.Options = Auditor.Options()) throws -> Result {
        let folder = try TemporaryFolder.make("audit").path
        var markers: [String] = []
        var files: [(String, String)] = example.files.map { ($0.path, $0.text) }
        if let policy = example.policyText { files.append(("policy.yaml", policy)) }
        for (path, text) in files {
            let (clean, positions) = strip(text, firstLine: 1)
            let full = (folder as NSString).appendingPathComponent(path)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try clean.write(toFile: full, atomically: true, encoding: .utf8)
            markers += positions.map { "\(PathNormalizer.display(full)):\($0.line):\($0.column)" }
        }
        let auditor = Auditor(options: options, swiftReader: swiftReader)
        let appFiles = example.files.map { (folder as NSString).appendingPathComponent($0.path) }
        let reading = try auditor.read(paths: appFiles)
        var policy: Policy?
        var sources: [SourceFile] = []
        if example.policy != nil {
            let loaded = PolicyLoader().load(path: (folder as NSString).appendingPathComponent("policy.yaml"))
            policy = loaded.policy
            sources = loaded.files
        }
        let report = auditor.audit(reading, policy: policy, policySources: sources)
        return Result(diagnostics: report.diagnostics, markers: markers, report: report, root: folder)
    }

    /// The text without its markers, and where they were.
    static func strip(_ text: String, firstLine: Int) -> (String, [SourcePosition]) {
        var clean = ""
        var positions: [SourcePosition] = []
        var line = firstLine, column = 1
        for scalar in text.unicodeScalars {
            if scalar == "↓" {
                positions.append(SourcePosition(line: line, column: column))
                continue
            }
            clean.unicodeScalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (clean + "\n", positions)
    }
}
