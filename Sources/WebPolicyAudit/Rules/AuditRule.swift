import WebPolicyKit
import WebPolicyRuntime

/// A check of the app's code against its policy (or against no policy, for hazards): one file
/// under `Rules/`, its metadata and example apps as data, its check a pure function of the
/// inventory and the policy. Rules never walk a syntax tree.
public protocol AuditRule: Sendable {
    static var description: RuleDescription { get }
    /// Whether the rule compares with a policy; without one it does not run.
    static var needsPolicy: Bool { get }
    init()
    func check(_ app: AuditSubject, _ context: inout AuditRuleContext)
}

extension AuditRule {
    public static var needsPolicy: Bool { true }
}

/// What a rule audits: the app's facts, and the policy when one is given.
public struct AuditSubject: Sendable {
    public let inventory: AppInventory
    public let policy: Policy?
    /// `--configuration debug`: code compiled only into debug builds counts as shipped.
    public let debugBuild: Bool
    /// Functions that make a value safe in script text: the app's own that the readers saw
    /// escape or encode, and those `.webpolicy.yml` names (`audit.script-escapers`).
    public let scriptEscapers: Set<String>

    public init(inventory: AppInventory, policy: Policy?, debugBuild: Bool = false, scriptEscapers: [String] = []) {
        self.inventory = inventory
        self.policy = policy
        self.debugBuild = debugBuild
        // `JS.escape` is called as `escape` on its type or a value of it.
        self.scriptEscapers = inventory.escapers.union(scriptEscapers.map { String($0.split(separator: ".").last ?? "") })
    }

    /// Facts compiled into the build being audited (an unknown `#if` counts): the release
    /// build for an iOS device, or the debug build with `--configuration debug`. Code under
    /// `#if DEBUG` is not in what ships, so a release audit does not report it.
    public func facts(_ include: (AppFact) -> Bool = { _ in true }) -> [AppFact] {
        inventory.facts.filter { fact in
            guard include(fact) else { return false }
            switch fact.site.compiled {
            case .never: return false
            case .releaseOnly: return !debugBuild
            case .debugOnly: return debugBuild
            case .always, .unknown: return true
            }
        }
    }
}

/// Where a rule reports. A finding in a `#Preview` is reported one step lower than the rule's
/// severity, never dropped; one under an `#if` the audit cannot evaluate says so.
public struct AuditRuleContext {
    public let rule: RuleDescription
    public let severity: Severity
    private(set) var diagnostics: [Diagnostic] = []

    init(rule: RuleDescription, severity: Severity) {
        self.rule = rule
        self.severity = severity
    }

    /// `severity` lets a rule report below its default (a value it cannot see); a severity set
    /// in `.webpolicy.yml` wins.
    public mutating func report(_ message: String, at site: FactSite, hint: String? = nil, notes: [Diagnostic.Note] = [], severity: Severity? = nil) {
        var chosen = self.severity == rule.defaultSeverity ? (severity ?? self.severity) : self.severity
        var notes = notes
        if site.inPreview {
            chosen = chosen.oneStepLower
            notes.append(Diagnostic.Note("in a #Preview: reported one step lower"))
        } else if site.compiled == .unknown {
            notes.append(Diagnostic.Note("under an #if condition the audit cannot evaluate: counted as shipped"))
        }
        diagnostics.append(Diagnostic(ruleID: rule.id, severity: chosen, message: message, location: site.location, notes: notes, hint: hint))
    }

    /// A finding in a policy file or a plist (no `#if` there).
    public mutating func report(_ message: String, at location: SourceLocation, hint: String? = nil, notes: [Diagnostic.Note] = [], severity: Severity? = nil) {
        report(message, at: FactSite(location: location), hint: hint, notes: notes, severity: severity)
    }
}

extension Severity {
    var oneStepLower: Severity {
        switch self {
        case .error: return .warning
        case .warning, .info: return .info
        }
    }
}
