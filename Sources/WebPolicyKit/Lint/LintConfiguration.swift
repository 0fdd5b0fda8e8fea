import Foundation
import WebPolicyRuntime

/// `.webpolicy.yml`: per-rule settings. Found upward from the working folder when `--config`
/// is not given; problems in it are input errors (exit code 2) with their file:line:col.
///
/// ```yaml
/// rules:
///   url-filter-matches-everything: off
///   host-trailing-dot: error
/// exclude:
///   - generated/**
///   - vendor
/// audit:
///   script-escapers: [jsQuoted, JS.escape]
/// ```
public struct LintConfiguration: Sendable {
    public enum Setting: Equatable, Sendable {
        case off
        case severity(Severity)
    }

    public static let fileNames = [".webpolicy.yml", ".webpolicy.yaml"]
    static let keys = ["rules", "exclude", "audit"]

    public var settings: [String: Setting] = [:]
    /// Where the configuration came from, if a file.
    public var path: String?
    /// Patterns of files that folder walks skip, relative to `excludeBase` (the configuration
    /// file's folder). Files named on the command line are linted regardless.
    public var exclude: [PathGlob] = []
    public var excludeBase: String?
    /// Whether `# webpolicy:` suppression comments count (`--no-inline-config` turns them off).
    public var inlineConfig = true
    /// `audit.script-escapers`: functions of the app's (by name, `escape` or `JS.escape`) that
    /// make a value safe in script text, which the audit cannot see do so.
    public var scriptEscapers: [String] = []
    /// Rule ids of the other commands (`webpolicy audit`'s), which a policy's suppressions may
    /// name: lint accepts them and leaves them to the command that reports them.
    public var otherRuleIDs: [String] = []

    public init(settings: [String: Setting] = [:], path: String? = nil) {
        self.settings = settings
        self.path = path
    }

    /// The severity a rule runs at, or nil when it is off.
    public func severity(for rule: RuleDescription) -> Severity? {
        switch settings[rule.id] {
        case .off: return nil
        case .severity(let severity): return severity
        case nil: return rule.defaultSeverity
        }
    }

    /// The nearest `.webpolicy.yml` in `directory` or one of its parents.
    public static func discover(from directory: String) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            for name in fileNames {
                let candidate = url.appendingPathComponent(name).path
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// Reads a configuration file; `knownRules` are the ids it may name.
    public static func load(path: String, knownRules: [RuleDescription]) throws(InputError) -> LintConfiguration {
        let display = PathNormalizer.display(path)
        guard case .file(let file) = SourceReader.read(path: path, displayPath: display) else {
            if case .problem(let diagnostic, _) = SourceReader.read(path: path, displayPath: display),
               diagnostic.ruleID == LoaderCheck.fileEmpty.id {
                return LintConfiguration(path: display)
            }
            throw InputError("cannot read the configuration file \(display)")
        }
        let (root, yamlDiagnostics) = YAMLComposer.compose(file)
        if let first = yamlDiagnostics.first { throw InputError(format(first)) }
        guard let root else { return LintConfiguration(path: display) }

        var reader = NodeReader(file: file)
        var configuration = LintConfiguration(path: display)
        let fields = reader.fields(of: root, context: "the configuration", allowed: keys)
        if let rules = fields?.value("rules") {
            if let pairs = rules.mapping {
                let ids = knownRules.map(\.id)
                for pair in pairs {
                    guard let id = pair.key.scalar?.value else { continue }
                    guard ids.contains(id) else {
                        var message = "unknown rule '\(id)' in the configuration"
                        if LoaderCheck(rawValue: id) != nil {
                            message = "'\(id)' is a loader check, which is always an error and cannot be configured"
                        } else if let suggestion = Suggestions.closest(to: id, in: ids) {
                            message += "; did you mean '\(suggestion)'?"
                        }
                        reader.error(.unknownKey, message, at: pair.key.range, hint: "`webpolicy rules` lists the rule ids")
                        continue
                    }
                    let value = pair.value.scalar?.value ?? ""
                    if value == "off" {
                        configuration.settings[id] = .off
                    } else if let severity = Severity(rawValue: value) {
                        configuration.settings[id] = .severity(severity)
                    } else {
                        reader.error(.invalidValue, "the setting of '\(id)' must be off, error, warning or info, but got '\(value)'", at: pair.value.range)
                    }
                }
            } else {
                reader.wrongKind(rules, expected: "a mapping from rule ids to off, error, warning or info", what: "'rules'")
            }
        }
        if let exclude = fields?.value("exclude") {
            if let items = exclude.sequence {
                for item in items {
                    guard let pattern = item.scalar?.value, !pattern.isEmpty else {
                        reader.error(.wrongType, "an exclude entry must be a path pattern, such as 'generated/**'", at: item.range)
                        continue
                    }
                    configuration.exclude.append(PathGlob(pattern))
                }
            } else {
                reader.wrongKind(exclude, expected: "a list of path patterns", what: "'exclude'")
            }
            configuration.excludeBase = (path as NSString).deletingLastPathComponent
        }
        if let audit = fields?.value("audit") {
            let auditFields = reader.fields(of: audit, context: "'audit'", allowed: ["script-escapers"])
            if let escapers = auditFields?.value("script-escapers") {
                if let items = escapers.sequence {
                    for item in items {
                        guard let name = item.scalar?.value, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
                            reader.error(.wrongType, "a script escaper must be a function's name, such as 'jsQuoted' or 'JS.escape'", at: item.range)
                            continue
                        }
                        configuration.scriptEscapers.append(name)
                    }
                } else {
                    reader.wrongKind(escapers, expected: "a list of function names", what: "'script-escapers'")
                }
            }
        }
        let problems = Diagnostic.normalized(reader.diagnostics)
        if !problems.isEmpty { throw InputError(problems.map(format).joined(separator: "\n")) }
        return configuration
    }

    private static func format(_ diagnostic: Diagnostic) -> String {
        var text = "\(diagnostic.location.path):\(diagnostic.location.start): \(diagnostic.message)"
        if let hint = diagnostic.hint { text += " (\(hint))" }
        return text
    }
}
