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
    /// For a rule about the app's code (`webpolicy audit`): apps that must trigger it at their
    /// `↓` markers, and apps that must not, each with the policy it is audited under.
    public var codeExamples: [CodeExample] { makeCodeExamples() }
    private let makeCodeExamples: @Sendable () -> [CodeExample]

    /// What a security review cites the weakness by, where one applies.
    public let standards: Standards

    public init(
        id: String, name: String, category: RuleCategory, defaultSeverity: Severity, summary: String,
        rationale: String, enforcedBySchema: Bool = false, standards: Standards = .none,
        failing: @autoclosure @escaping @Sendable () -> [Example], passing: @autoclosure @escaping @Sendable () -> [Example],
        codeExamples: @autoclosure @escaping @Sendable () -> [CodeExample] = []
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.rationale = rationale
        self.enforcedBySchema = enforcedBySchema
        self.standards = standards
        makeFailing = failing
        makePassing = passing
        makeCodeExamples = codeExamples
    }
}

/// A small app for an audit rule's documentation and tests: its files (Swift, Objective-C,
/// an Info.plist, a storyboard) with `↓` where a finding must start, and the policy it is
/// audited under (nil: no policy).
public struct CodeExample: Sendable {
    public struct File: Sendable {
        public let path: String
        public let text: String

        public init(_ path: String, _ text: String) {
            self.path = path
            self.text = text
        }

        /// The fence language of the file in docs/rules.md.
        public var language: String {
            switch path.split(separator: ".").last {
            case "swift": return "swift"
            case "m", "h", "mm": return "objc"
            case "plist", "storyboard", "xib", "entitlements": return "xml"
            default: return ""
            }
        }
    }

    public let triggers: Bool
    public let files: [File]
    /// The policy's sections (without `webpolicy: 1` and `name:`), or nil.
    public let policy: String?
    public let sourceFile: String
    public let sourceLine: Int

    public init(triggers: Bool, files: [File], policy: String?, file: StaticString = #filePath, line: UInt = #line) {
        self.triggers = triggers
        self.files = files
        self.policy = policy
        sourceFile = "\(file)"
        sourceLine = Int(line)
    }

    public static func triggers(_ files: File..., policy: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> CodeExample {
        CodeExample(triggers: true, files: files, policy: policy, file: file, line: line)
    }

    public static func passes(_ files: File..., policy: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> CodeExample {
        CodeExample(triggers: false, files: files, policy: policy, file: file, line: line)
    }

    public var policyText: String? { policy.map { Example.header + $0 } }
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
    case webView = "webview"
    case runtimeHosts = "runtime-hosts"
    case targets
    /// `webpolicy audit`: the app's code, Info.plists and storyboards against the policy.
    case appCode = "app-code"
    /// `webpolicy audit`: web-view hazards no policy makes safe.
    case appHazards = "app-hazards"

    public var title: String {
        switch self {
        case .hosts: return "Hosts"
        case .schemes: return "Schemes"
        case .cookies: return "Cookies"
        case .interception: return "Interception"
        case .urlFilters: return "URL filters (WebKit's regex subset)"
        case .contentRules: return "Content rules (WebKit's parser)"
        case .navigation: return "Navigation and App-Bound Domains"
        case .bridges: return "Bridges"
        case .webView: return "The web view's configuration"
        case .runtimeHosts: return "Hosts named by role (runtime-hosts)"
        case .targets: return "Targets and limits"
        case .appCode: return "The app's code against its policy (webpolicy audit)"
        case .appHazards: return "Web-view hazards in the app's code (webpolicy audit)"
        }
    }

    /// The folder of `Sources/WebPolicyKit/Lint/Rules` that holds the category's rules; nil
    /// for the audit's, which sit under `Sources/WebPolicyAudit/Rules` by the app's feature.
    public var lintFolder: String? {
        switch self {
        case .hosts: return "Hosts"
        case .schemes: return "Schemes"
        case .cookies: return "Cookies"
        case .interception: return "Interception"
        case .urlFilters: return "URLFilters"
        case .contentRules: return "ContentRules"
        case .navigation: return "Navigation"
        case .bridges: return "Bridges"
        case .webView: return "WebView"
        case .runtimeHosts: return "RuntimeHosts"
        case .targets: return "Targets"
        case .appCode, .appHazards: return nil
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
