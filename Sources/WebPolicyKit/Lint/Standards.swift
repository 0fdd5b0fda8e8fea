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

    /// A CWE entry's page at MITRE; nil for other identifiers.
    public static func url(of identifier: String) -> String? {
        guard identifier.hasPrefix("CWE-"), let number = Int(identifier.dropFirst(4)) else { return nil }
        return "https://cwe.mitre.org/data/definitions/\(number).html"
    }
}
