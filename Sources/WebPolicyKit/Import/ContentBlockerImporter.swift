import Foundation
import WebPolicyRuntime

/// The outcome of converting a content-blocker list into a policy.
public struct ImportResult: Sendable {
    /// The policy as YAML; nil when the list has errors.
    public var policyText: String?
    public var report: LintReport
    /// How many rules the policy holds.
    public var importedRules: Int
}

/// `webpolicy import`: a WebKit content-blocker list (JSON) becomes a policy whose
/// `content-rules` compile back to the same list. The list is first checked with the port of
/// WebKit's parser, so a list WebKit refuses is refused here with the same cause, and what WebKit
/// ignores or skips is left out with a warning.
public enum ContentBlockerImporter {
    public struct Options: Sendable {
        public var name: String?
        /// The policy's `target.ios`; by default the lowest that has every feature the list uses
        /// (at least webpolicy's default).
        public var target: OSVersion?
        /// Written as the `yaml-language-server` modeline, so editors check the policy.
        public var schemaReference: String?

        public init(name: String? = nil, target: OSVersion? = nil, schemaReference: String? = nil) {
            self.name = name
            self.target = target
            self.schemaReference = schemaReference
        }
    }

    /// Reads and converts the list at `path`.
    public static func importList(path: String, options: Options = Options()) -> ImportResult {
        switch SourceReader.read(path: path, displayPath: path, expecting: .contentBlockerList) {
        case .problem(let diagnostic, let source):
            return ImportResult(policyText: nil, report: LintReport(diagnostics: [diagnostic], sources: source.map { [path: $0] } ?? [:], lintedFiles: [path]), importedRules: 0)
        case .file(let file):
            return importList(file, options: options)
        }
    }

    /// A list read as WebKit reads it: the rules WebKit keeps, or nil when it refuses the list,
    /// with every diagnostic (errors, and warnings for what it ignores).
    /// `deferringKeptRulesRegexes`: see `WebKitRuleListParser.parse`.
    public static func parseList(_ file: SourceFile, deferringKeptRulesRegexes: Bool = false) -> (rules: [(index: Int, node: JSONNode)]?, diagnostics: [Diagnostic]) {
        let read = read(file, deferringKeptRulesRegexes: deferringKeptRulesRegexes)
        return (read.rules, read.diagnostics)
    }

    /// `parseList`, with what WebKit's parser learnt of the kept rules' regexes on the way.
    struct ReadList {
        var rules: [(index: Int, node: JSONNode)]?
        var diagnostics: [Diagnostic]
        /// The ranges of the kept rules' url regexes that match every URL (every other one is a
        /// plain filter, or the list would have been refused).
        var regexesMatchingEverything: Set<SourceRange> = []
    }

    static func read(_ file: SourceFile, deferringKeptRulesRegexes: Bool = false) -> ReadList {
        let root: JSONNode
        switch JSONDocument.parse(file.text) {
        case .failure(let error):
            return ReadList(rules: nil, diagnostics: [Diagnostic(
                ruleID: ImportCheck.jsonSyntax.id, severity: .error,
                message: "\(error.message) (WebKit: \(ContentExtensionError.jsonInvalid.rawValue), \"\(ContentExtensionError.jsonInvalid.message)\")",
                location: file.location(SourceRange(at: error.position)),
                hint: FilterListSyntax.looksLikeFilterList(file.text) ? FilterListSyntax.hint : nil)])
        case .success(let node):
            root = node
        }
        // Every rule counts against one list here; the policy may hold more, as compile splits.
        let parsed = WebKitRuleListParser.parse(root, maximumRuleCount: .max, deferringKeptRulesRegexes: deferringKeptRulesRegexes)
        let diagnostics = parsed.issues.map { diagnostic(for: $0, in: file) }
        return ReadList(rules: parsed.isAccepted ? parsed.keptRules.map { ($0.index, $0.rule) } : nil, diagnostics: diagnostics,
                        regexesMatchingEverything: parsed.regexesMatchingEverything)
    }

    public static func importList(_ file: SourceFile, options: Options = Options()) -> ImportResult {
        func report(_ diagnostics: [Diagnostic]) -> LintReport {
            LintReport(diagnostics: diagnostics, sources: [file.path: file], lintedFiles: [file.path])
        }
        let (kept, parsed) = parseList(file)
        // What WebKit ignores, the policy leaves out.
        let diagnostics = parsed.map { diagnostic in
            var said = diagnostic
            if diagnostic.ruleID == ImportCheck.ignoredMember.id { said.message += "; the policy leaves it out" }
            if diagnostic.ruleID == ImportCheck.skippedRule.id { said.message += "; the policy leaves the rule out" }
            return said
        }
        guard let kept else {
            return ImportResult(policyText: nil, report: report(diagnostics), importedRules: 0)
        }
        return importParsed(file, kept: kept, diagnostics: diagnostics, options: options)
    }

    /// The policy of a list `parseList` accepted (`diagnostics`: what it said of it).
    static func importParsed(_ file: SourceFile, kept: [(index: Int, node: JSONNode)], diagnostics: [Diagnostic], options: Options) -> ImportResult {
        let converted = convert(file, kept: kept)
        let target = options.target ?? converted.requiredTarget
        let policy = document(rules: converted.rules.map(json), name: options.name ?? defaultName(for: file.path), target: target, source: file.path)
        var text = "# Imported from \((file.path as NSString).lastPathComponent) by webpolicy import.\n"
        if let schema = options.schemaReference { text = "# yaml-language-server: $schema=\(schema)\n" + text }
        text += YAMLWriter.render(policy)
        let report = LintReport(diagnostics: diagnostics + converted.diagnostics, sources: [file.path: file], lintedFiles: [file.path])
        return ImportResult(policyText: text, report: report, importedRules: converted.rules.count)
    }

    /// The `content-rules` entries of a list `parseList` accepted, each a node at its place in
    /// the list; what conversion said of them; the lowest iOS with every feature they use.
    static func convert(_ file: SourceFile, kept: [(index: Int, node: JSONNode)]) -> (rules: [YAMLNode], diagnostics: [Diagnostic], requiredTarget: OSVersion) {
        var conversion = RuleConversion(file: file)
        let rules = kept.map { conversion.convert($0.node, index: $0.index) }
        return (rules, conversion.diagnostics, conversion.requiredTarget)
    }

    /// A converted entry as the value the policy writer renders: a double-quoted scalar is the
    /// list's string, a plain one the boolean or integer it was.
    private static func json(_ node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.resolved {
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .null: return .null
            case .float(let text), .string(let text): return .string(text)
            }
        case .sequence(let items): return .array(items.map(json))
        case .mapping(let pairs): return .object(pairs.map { ($0.key.scalar!.value, json($0.value)) })
        }
    }

    private static func document(rules: [JSONValue], name: String, target: OSVersion, source: String) -> JSONValue {
        .object([
            ("webpolicy", .int(1)),
            ("name", .string(name)),
            ("target", .object([("ios", .string(target.description))])),
            ("content-rules", .array(rules)),
        ])
    }

    /// The list's file name without its extensions (`easylist.json` → `easylist`).
    public static func defaultName(for path: String) -> String {
        var name = (path as NSString).lastPathComponent
        while !(name as NSString).pathExtension.isEmpty { name = (name as NSString).deletingPathExtension }
        return name.isEmpty ? "imported" : name
    }

    private static func diagnostic(for issue: WebKitParseIssue, in file: SourceFile) -> Diagnostic {
        let rule = issue.ruleIndex.map { "rule \($0 + 1): " } ?? ""
        switch issue.kind {
        case .error(let error):
            // A refused regex is pointed at its offending characters inside the JSON string.
            let range = issue.stringSpan.flatMap { JSONDocument.sourceRange(ofDecoded: $0, inStringAt: issue.range.start, of: file) } ?? issue.range
            return Diagnostic(ruleID: ImportCheck.webKitError.id, severity: .error,
                              message: "\(rule)\(issue.message) (WebKit: \(error.rawValue), \"\(error.message)\")",
                              location: file.location(range),
                              hint: "WebKit refuses the whole list for this: fix the rule or remove it")
        case .ignored:
            return Diagnostic(ruleID: ImportCheck.ignoredMember.id, severity: .warning, message: "\(rule)\(issue.message)",
                              location: file.location(issue.range))
        case .skippedRule:
            return Diagnostic(ruleID: ImportCheck.skippedRule.id, severity: .warning, message: "\(rule)\(issue.message)",
                              location: file.location(issue.range))
        }
    }
}
