import WebPolicyRuntime

/// What a lint rule is, for documentation and for testing: SwiftLint's `RuleDescription`
/// ("used for both documentation and testing purposes"). `docs/rules.md` is generated from
/// these, and one generic test runs every rule's examples.
public struct RuleDescription: Sendable {
    /// Kebab-case, as it appears in suppressions, `.webpolicy.yml`, SARIF and `--format json`.
    public let id: String
    /// Title Case.
    public let name: String
    public let category: RuleCategory
    public let defaultSeverity: Severity
    /// One sentence.
    public let summary: String
    /// Why the rule exists and what platform behaviour it copies, with its source (markdown).
    public let rationale: String
    /// Whether `schemas/webpolicy.schema.json` rejects what this rule reports, so editors flag it
    /// too; the schema-agreement check in CI relies on this.
    public let enforcedBySchema: Bool
    /// Policies that must trigger the rule exactly at their `↓` markers.
    public var failing: [Example] { makeFailing() }
    /// Policies that must not trigger it.
    public var passing: [Example] { makePassing() }
    // Built when documentation or tests ask, never when linting: some examples are policies
    // over WebKit's rule limit, and every lint run reads every rule's description.
    private let makeFailing: @Sendable () -> [Example]
    private let makePassing: @Sendable () -> [Example]

    public init(
        id: String, name: String, category: RuleCategory, defaultSeverity: Severity, summary: String,
        rationale: String, enforcedBySchema: Bool = false,
        failing: @autoclosure @escaping @Sendable () -> [Example], passing: @autoclosure @escaping @Sendable () -> [Example]
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.rationale = rationale
        self.enforcedBySchema = enforcedBySchema
        makeFailing = failing
        makePassing = passing
    }
}

/// The sections of `docs/rules.md`.
public enum RuleCategory: String, CaseIterable, Sendable {
    case hosts
    case schemes
    case cookies
    case interception
    case urlFilters = "url-filters"
    case contentRules = "content-rules"
    case navigation
    case bridges
    case targets

    public var title: String {
        switch self {
        case .hosts: return "Hosts"
        case .schemes: return "Schemes"
        case .cookies: return "Cookies"
        case .interception: return "Interception"
        case .urlFilters: return "URL filters (WebKit's regex subset)"
        case .contentRules: return "Content rules (WebKit's parser)"
        case .navigation: return "Navigation and App-Bound Domains"
        case .bridges: return "Bridges and the web view's configuration"
        case .targets: return "Targets and limits"
        }
    }
}

/// A policy snippet for a rule's documentation and tests. `↓` marks where a diagnostic must
/// start. The snippet leaves out the `webpolicy: 1` and `name:` lines; `policyText` adds them.
public struct Example: Sendable {
    public let text: String
    /// What the documentation shows instead of `text`, when `text` is too long to print (a
    /// policy over WebKit's rule limit).
    public let displayText: String?
    /// Where the example is written, so a failing example points at its own source line.
    public let sourceFile: String
    public let sourceLine: Int
    /// Other rules that this example necessarily triggers too (a policy big enough to split
    /// always gets `content-rule-limit`'s warning).
    public let alsoReportedBy: [String]

    public static let marker: Character = "↓"
    static let header = "webpolicy: 1\nname: example\n"

    public init(_ text: String, displayedAs displayText: String? = nil, alsoReportedBy: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
        self.text = text
        self.displayText = displayText
        self.alsoReportedBy = alsoReportedBy
        self.sourceFile = "\(file)"
        self.sourceLine = Int(line)
    }

    /// The example as documentation shows it.
    public var documentedText: String { displayText ?? text }

    /// The complete policy, markers removed.
    public var policyText: String {
        Self.header + text.filter { $0 != Self.marker }
    }

    /// The positions of the markers in `policyText`.
    public var markedPositions: [SourcePosition] {
        var positions: [SourcePosition] = []
        var line = 3
        var column = 1
        for scalar in text.unicodeScalars {
            if Character(scalar) == Self.marker {
                positions.append(SourcePosition(line: line, column: column))
            } else if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return positions
    }
}
