import Foundation
/// The identifiers a security review files a finding under: OWASP MASVS v2 controls (what the
/// app must do), MASWE weaknesses (what goes wrong), MASTG tests (how a tester checks it) and
/// MITRE CWE entries — as semgrep's and MobSF's mobile rules carry them. A rule names them only
/// where the weakness is one of theirs; a YAML typo is no CWE.
public struct Standards: Sendable, Equatable {
    /// `MASVS-PLATFORM-2`: a control of MASVS v2 (OWASP/masvs).
    public var masvs: [String]
    /// `MASWE-0068`: a weakness of the Mobile Application Security Weakness Enumeration.
    public var maswe: [String]
    /// `MASTG-TEST-0078`: a test of the Mobile Application Security Testing Guide (OWASP/owasp-mastg).
    public var mastg: [String]
    /// `CWE-749`: a MITRE Common Weakness Enumeration entry.
    public var cwe: [String]

    public static let none = Standards()

    public init(masvs: [String] = [], maswe: [String] = [], mastg: [String] = [], cwe: [String] = []) {
        self.masvs = masvs
        self.maswe = maswe
        self.mastg = mastg
        self.cwe = cwe
    }

    public var isEmpty: Bool { masvs.isEmpty && maswe.isEmpty && mastg.isEmpty && cwe.isEmpty }

    /// All of them, in that order: SARIF's `properties.tags`, the docs' line.
    public var identifiers: [String] { masvs + maswe + mastg + cwe }

    /// GitHub code scanning's `security-severity` (0.1–10.0; 9.0 and up critical, 7.0 high,
    /// 4.0 medium, below that low) for a finding of this severity: a CVSS-like base score from
    /// the severity, raised by how directly the weakness exposes the app — what a page can
    /// reach in native code (MASVS-PLATFORM, MASVS-CODE) most, then data in transit or at rest
    /// (MASVS-NETWORK, MASVS-STORAGE, MASVS-PRIVACY, MASVS-AUTH, MASVS-CRYPTO), then hardening
    /// (MASVS-RESILIENCE). nil for a rule with no standards: not a security finding.
    /// docs/output-formats.md tabulates it.
    public func securitySeverity(for severity: Severity) -> String? {
        guard !isEmpty else { return nil }
        let base: Double
        switch severity {
        case .error: base = 6.5
        case .warning: base = 4.5
        case .info: base = 2.0
        }
        let raise = masvs.map { control -> Double in
            let group = control.split(separator: "-").dropFirst().first.map(String.init) ?? ""
            return Self.categoryWeights[group] ?? 0
        }.max() ?? 0
        let score = min(base + raise, 9.8)
        return String(format: "%.1f", score)
    }

    /// What a MASVS group adds to the base score.
    public static let categoryWeights: [String: Double] = [
        "PLATFORM": 1.5, "CODE": 1.5,
        "NETWORK": 1.0, "STORAGE": 1.0, "PRIVACY": 1.0, "AUTH": 1.0, "CRYPTO": 1.0,
        "RESILIENCE": 0.5,
    ]

    /// A CWE entry's page at MITRE; nil for other identifiers.
    public static func url(of identifier: String) -> String? {
        guard identifier.hasPrefix("CWE-"), let number = Int(identifier.dropFirst(4)) else { return nil }
        return "https://cwe.mitre.org/data/definitions/\(number).html"
    }
}
