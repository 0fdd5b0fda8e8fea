import URLFilter

/// One thing WebKit would say about a rule list: an error that makes `WKContentRuleListStore`
/// refuse the whole list, or something it silently ignores or skips.
public struct WebKitParseIssue: Sendable {
    public enum Kind: Sendable, Equatable {
        case error(ContentExtensionError)
        /// A member WebKit ignores (an unknown key, a non-boolean flag); the string says which.
        case ignored
        /// A rule WebKit drops without an error (a css-display-none rule whose selector fails).
        case skippedRule
    }

    public var kind: Kind
    public var message: String
    public var range: SourceRange
    /// Which rule of the list (0-based), if the issue belongs to one.
    public var ruleIndex: Int?
    /// For a refused regex: the offending characters, as scalar offsets into the decoded
    /// string at `range` (map them back with `JSONDocument.sourceRange(ofDecoded:inStringAt:of:)`).
    public var stringSpan: Range<Int>? = nil
}

/// WebKit's content-blocker JSON parser (`ContentExtensionParser.cpp`: `loadEncodedRules`,
/// `loadTrigger`, `loadAction`; `ContentExtensionActions.cpp`: `RedirectAction::parse`,
/// `ModifyHeadersAction::parse`), followed by the url-filter checks `compileRuleList` makes.
/// Checks run in WebKit's order, so the first error of a rule is the one WebKit reports; unlike
/// WebKit, parsing goes on with the next rule, so every failing rule is found in one run.
public enum WebKitRuleListParser {
    public struct Result: Sendable {
        public var issues: [WebKitParseIssue]
        /// The rules WebKit would keep, as JSON objects with their index in the list.
        public var keptRules: [(index: Int, rule: JSONNode)]
        /// Where a url-filter (or a top- or frame-url condition) of a kept rule matches every
        /// URL: the one parse result besides a plain filter that an accepted list can hold, so a
        /// linter need not parse its regexes again.
        public var regexesMatchingEverything: Set<SourceRange> = []

        public var errors: [WebKitParseIssue] { issues.filter { if case .error = $0.kind { return true } else { return false } } }
        public var isAccepted: Bool { errors.isEmpty }
    }

    /// WebKit's `maxRuleCount` from iOS 15 on; earlier WebKit took 50,000.
    public static let currentMaximumRuleCount = 150_000

    public static func parse(_ text: String, maximumRuleCount: Int = currentMaximumRuleCount, deferringKeptRulesRegexes: Bool = false) -> Result {
        switch JSONDocument.parse(text) {
        case .failure(let error):
            return Result(issues: [WebKitParseIssue(kind: .error(.jsonInvalid), message: error.message, range: SourceRange(at: error.position), ruleIndex: nil)], keptRules: [])
        case .success(let root):
            return parse(root, maximumRuleCount: maximumRuleCount, deferringKeptRulesRegexes: deferringKeptRulesRegexes)
        }
    }

    /// `deferringKeptRulesRegexes`: the url-filters and conditions of the rules WebKit keeps
    /// are not parsed, for a caller that builds an engine of the kept rules next — which
    /// parses each of them anyway, and could not keep both parses' terms alive (a real list's
    /// outweigh its engine). Such a caller asks the engine whether it refused any
    /// (`ContentRuleEngine.refusesAFilter`) and, when it did, parses again without deferring
    /// for WebKit's error; a rule that is checked but not kept has its regexes checked still.
    public static func parse(_ root: JSONNode, maximumRuleCount: Int = currentMaximumRuleCount, deferringKeptRulesRegexes: Bool = false) -> Result {
        guard let rules = root.array else {
            return Result(issues: [issue(.jsonTopLevelStructureNotAnArray, "the top level is \(root.kindName), not an array", root.range)], keptRules: [])
        }
        // Counted on the raw array, before any rule is skipped (`loadEncodedRules`).
        if rules.count > maximumRuleCount {
            return Result(issues: [issue(.jsonTooManyRules, "the list has \(rules.count) rules; WebKit accepts at most \(maximumRuleCount)", root.range)], keptRules: [])
        }
        // Rules are checked independently (the url-filter parse dominates): use every core.
        let checked = Array(rules.enumerated()).parallelMap { index, rule in
            var checker = RuleChecker(index: index, deferringKeptRulesRegexes: deferringKeptRulesRegexes)
            let kept = checker.check(rule)
            return (kept, checker.issues, checker.matchingEverything)
        }
        var result = Result(issues: [], keptRules: [])
        for (index, (kept, issues, matchingEverything)) in checked.enumerated() {
            if kept {
                result.keptRules.append((index, rules[index]))
                result.regexesMatchingEverything.formUnion(matchingEverything)
            }
            result.issues += issues
        }
        if result.isAccepted && result.keptRules.isEmpty {
            let why = rules.isEmpty ? "the list has no rules" : "WebKit skips every rule of the list"
            result.issues.append(issue(.jsonContainsNoRules, why, root.range))
        }
        return result
    }

    static func issue(_ error: ContentExtensionError, _ message: String, _ range: SourceRange, rule: Int? = nil) -> WebKitParseIssue {
        WebKitParseIssue(kind: .error(error), message: message, range: range, ruleIndex: rule)
    }

    /// The keys WebKit reads in a trigger, in `loadTrigger`'s order.
    public static let triggerKeys = [
        "url-filter", "url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive", "frame-url-filter-is-case-sensitive",
        "resource-type", "load-type", "load-context", "request-method",
    ] + ConditionKind.allCases.map(\.rawValue)

    /// The keys each action type reads besides `type`.
    public static let actionKeys: [String: [String]] = [
        "css-display-none": ["selector"], "notify": ["notification"], "redirect": ["redirect"],
        "modify-headers": ["priority", "request-headers", "response-headers"],
    ]
}

/// Checks one rule; stops at the rule's first error, as `loadRule` does.
private struct RuleChecker {
    let index: Int
    let deferringKeptRulesRegexes: Bool
    var issues: [WebKitParseIssue] = []
    var matchingEverything: [SourceRange] = []

    init(index: Int, deferringKeptRulesRegexes: Bool = false) {
        self.index = index
        self.deferringKeptRulesRegexes = deferringKeptRulesRegexes
    }

    private struct Stop: Error {}

    private mutating func fail(_ error: ContentExtensionError, _ message: String, _ range: SourceRange) -> Stop {
        issues.append(WebKitRuleListParser.issue(error, message, range, rule: index))
        return Stop()
    }

    private mutating func ignore(_ message: String, _ range: SourceRange) {
        issues.append(WebKitParseIssue(kind: .ignored, message: message, range: range, ruleIndex: index))
    }

    /// Returns whether WebKit keeps the rule.
    mutating func check(_ rule: JSONNode) -> Bool {
        do {
            guard let members = rule.members else {
                throw fail(.jsonInvalidRule, "rule \(index + 1) is \(rule.kindName), not an object", rule.range)
            }
            for member in members where member.key != "trigger" && member.key != "action" {
                ignore("WebKit ignores the key '\(member.key)' of a rule", member.keyRange)
            }
            let (urlFilter, caseSensitivity) = try checkTrigger(rule)
            let kept = try checkAction(rule)
            // A rule WebKit does not keep still has its regexes compiled: one it refuses
            // refuses the list.
            if !(kept && deferringKeptRulesRegexes) {
                try checkRegexes(rule, urlFilter: urlFilter, caseSensitivity: caseSensitivity)
            }
            return kept
        } catch {
            return false
        }
    }

    // MARK: Trigger (`loadTrigger`)

    private mutating func checkTrigger(_ rule: JSONNode) throws -> (JSONNode, [String: Bool]) {
        guard let trigger = rule.member("trigger"), let members = trigger.members else {
            throw fail(.jsonInvalidTrigger, "the trigger is \(rule.member("trigger")?.kindName ?? "missing"), not an object", rule.member("trigger")?.range ?? rule.range)
        }
        for member in members where !WebKitRuleListParser.triggerKeys.contains(member.key) {
            ignore("WebKit ignores the trigger key '\(member.key)'", member.keyRange)
        }
        guard let urlFilter = trigger.member("url-filter"), let filter = urlFilter.string, !filter.isEmpty else {
            let node = trigger.member("url-filter")
            let what = node.map { $0.string == "" ? "empty" : "\($0.kindName), not a string" } ?? "missing"
            throw fail(.jsonInvalidURLFilterInTrigger, "the url-filter is \(what)", node?.range ?? trigger.range)
        }
        var caseSensitivity: [String: Bool] = [:]
        for key in ["url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive", "frame-url-filter-is-case-sensitive"] {
            guard let value = trigger.member(key) else { continue }
            if let flag = value.bool {
                caseSensitivity[key] = flag
            } else {
                ignore("WebKit ignores '\(key)' unless it is true or false, and this is \(value.kindName)", value.range)
            }
        }
        let flagVocabularies: [(String, [String])] = [
            ("resource-type", ResourceType.allCases.map(\.rawValue)),
            ("load-type", LoadType.allCases.map(\.rawValue)),
            ("load-context", LoadContext.allCases.map(\.rawValue)),
        ]
        for (key, vocabulary) in flagVocabularies {
            guard let value = trigger.member(key) else { continue }
            guard let items = value.array else {
                throw fail(.jsonInvalidTriggerFlagsArray, "'\(key)' is \(value.kindName), not an array", value.range)
            }
            for item in items where !(item.string.map(vocabulary.contains) ?? false) {
                throw fail(.jsonInvalidStringInTriggerFlagsArray, "'\(key)' holds \(item.string.map { "'\($0)'" } ?? item.kindName), which is not one of \(vocabulary.joined(separator: ", "))", item.range)
            }
        }
        if let method = trigger.member("request-method") {
            // `readRequestMethod` compares with equalIgnoringASCIICase.
            guard let name = method.string, RequestMethod(rawValue: name.lowercased()) != nil else {
                throw fail(.jsonInvalidRequestMethod, "'request-method' is \(method.string.map { "'\($0)'" } ?? method.kindName)", method.range)
            }
        }
        // `checkCondition`, in WebKit's order: a second condition fails before its value is read.
        var hasCondition = false
        for kind in ConditionKind.allCases {
            guard let value = trigger.member(kind.rawValue) else { continue }
            if hasCondition {
                throw fail(.jsonMultipleConditions, "'\(kind.rawValue)' is a second condition; a trigger takes one", value.range)
            }
            guard let entries = value.array else {
                throw fail(.jsonInvalidConditionList, "'\(kind.rawValue)' is \(value.kindName), not an array", value.range)
            }
            for entry in entries {
                // `getStringList`: a non-string reads as the null string, which is empty.
                guard let text = entry.string, !text.isEmpty else {
                    throw fail(.jsonInvalidConditionList, "'\(kind.rawValue)' holds \(entry.string != nil ? "an empty string" : entry.kindName)", entry.range)
                }
                if kind.takesDomains && !text.unicodeScalars.allSatisfy({ $0.isASCII && !("A"..."Z").contains($0) }) {
                    throw fail(.jsonDomainNotLowerCaseASCII, "the domain '\(text)' is not lowercase ASCII", entry.range)
                }
            }
            if entries.isEmpty {
                throw fail(.jsonInvalidConditionList, "'\(kind.rawValue)' is an empty array", value.range)
            }
            hasCondition = true
        }
        return (urlFilter, caseSensitivity)
    }

    // MARK: Action (`loadAction`)

    private mutating func checkAction(_ rule: JSONNode) throws -> Bool {
        guard let action = rule.member("action"), let members = action.members else {
            throw fail(.jsonInvalidAction, "the action is \(rule.member("action")?.kindName ?? "missing"), not an object", rule.member("action")?.range ?? rule.range)
        }
        let type = action.member("type")?.string ?? ""
        guard ContentActionType(rawValue: type) != nil else {
            let node = action.member("type")
            throw fail(.jsonInvalidActionType, "the action type is \(node.map { $0.string.map { "'\($0)'" } ?? $0.kindName } ?? "missing")", node?.range ?? action.range)
        }
        let allowed = ["type"] + (WebKitRuleListParser.actionKeys[type] ?? [])
        for member in members where !allowed.contains(member.key) {
            ignore("WebKit ignores '\(member.key)' in a \(type) action", member.keyRange)
        }
        switch type {
        case "css-display-none":
            guard let selector = action.member("selector"), let text = selector.string else {
                throw fail(.jsonInvalidCSSDisplayNoneActionType, "the css-display-none action has \(action.member("selector").map { "a selector that is \($0.kindName)" } ?? "no selector")", action.member("selector")?.range ?? action.range)
            }
            if !CSSSelectorCheck.isValid(text) {
                // "Skip rules with invalid selectors to be backwards-compatible."
                issues.append(WebKitParseIssue(kind: .skippedRule, message: "WebKit drops this rule without an error: its selector '\(text)' does not parse", range: selector.range, ruleIndex: index))
                return false
            }
        case "notify":
            guard let notification = action.member("notification"), notification.string != nil else {
                throw fail(.jsonInvalidNotification, "the notify action has \(action.member("notification").map { "a notification that is \($0.kindName)" } ?? "no notification")", action.member("notification")?.range ?? action.range)
            }
        case "redirect":
            try checkRedirect(action)
        case "modify-headers":
            try checkModifyHeaders(action)
        default:
            break
        }
        return true
    }

    // `RedirectAction::parse`: the first member found wins, in this order.
    private mutating func checkRedirect(_ action: JSONNode) throws {
        guard let redirect = action.member("redirect"), redirect.members != nil else {
            throw fail(.jsonRedirectMissing, "the redirect action has no redirect object", action.member("redirect")?.range ?? action.range)
        }
        if let path = redirect.member("extension-path"), let text = path.string {
            if !text.hasPrefix("/") { throw fail(.jsonRedirectExtensionPathDoesNotStartWithSlash, "the extension path '\(text)' does not start with '/'", path.range) }
            return
        }
        if redirect.member("regex-substitution")?.string != nil { return }
        if let transform = redirect.member("transform"), transform.members != nil {
            try checkTransform(transform)
            return
        }
        if let url = redirect.member("url"), let text = url.string {
            guard WebKitURL.isValid(text) else { throw fail(.jsonRedirectURLInvalid, "the redirect url '\(text)' is not a valid URL", url.range) }
            if WebKitURL.scheme(of: text) == "javascript" { throw fail(.jsonRedirectToJavaScriptURL, "the redirect url '\(text)' is a javascript: URL", url.range) }
            return
        }
        throw fail(.jsonRedirectInvalidType, "the redirect has none of extension-path, regex-substitution, transform and url", redirect.range)
    }

    // `URLTransformAction::parse`.
    private mutating func checkTransform(_ transform: JSONNode) throws {
        if let fragment = transform.member("fragment"), let text = fragment.string, !text.isEmpty, !text.hasPrefix("#") {
            throw fail(.jsonRedirectInvalidFragment, "the fragment '\(text)' neither is empty nor starts with '#'", fragment.range)
        }
        if let port = transform.member("port"), let text = port.string, !text.isEmpty, WebKitURL.port(text) == nil {
            throw fail(.jsonRedirectInvalidPort, "the port '\(text)' is not a number from 0 to 65535", port.range)
        }
        if let scheme = transform.member("scheme"), let text = scheme.string {
            guard let canonical = WebKitURL.canonicalScheme(text) else { throw fail(.jsonRedirectURLSchemeInvalid, "'\(text)' is not a valid scheme", scheme.range) }
            if canonical == "javascript" { throw fail(.jsonRedirectToJavaScriptURL, "the transform's scheme is javascript", scheme.range) }
        }
        if let queryTransform = transform.member("query-transform"), queryTransform.members != nil {
            try checkQueryTransform(queryTransform)
        } else if let query = transform.member("query"), let text = query.string, !text.isEmpty, !text.hasPrefix("?") {
            throw fail(.jsonRedirectInvalidQuery, "the query '\(text)' neither is empty nor starts with '?'", query.range)
        }
    }

    // `QueryTransform::parse` and `QueryKeyValue::parse`.
    private mutating func checkQueryTransform(_ queryTransform: JSONNode) throws {
        if let remove = queryTransform.member("remove-parameters") {
            guard let items = remove.array else { throw fail(.jsonRemoveParametersNotStringArray, "'remove-parameters' is \(remove.kindName), not an array", remove.range) }
            if let bad = items.first(where: { $0.string == nil }) { throw fail(.jsonRemoveParametersNotStringArray, "'remove-parameters' holds \(bad.kindName)", bad.range) }
        }
        if let add = queryTransform.member("add-or-replace-parameters") {
            guard let items = add.array else { throw fail(.jsonAddOrReplaceParametersNotArray, "'add-or-replace-parameters' is \(add.kindName), not an array", add.range) }
            for item in items {
                guard item.members != nil else { throw fail(.jsonAddOrReplaceParametersKeyValueNotADictionary, "a parameter is \(item.kindName), not an object", item.range) }
                guard item.member("key")?.string != nil else { throw fail(.jsonAddOrReplaceParametersKeyValueMissingKeyString, "a parameter has no string 'key'", item.member("key")?.range ?? item.range) }
                guard item.member("value")?.string != nil else { throw fail(.jsonAddOrReplaceParametersKeyValueMissingValueString, "a parameter has no string 'value'", item.member("value")?.range ?? item.range) }
            }
        }
    }

    // `ModifyHeadersAction::parse`: request headers, response headers, then the priority.
    private mutating func checkModifyHeaders(_ action: JSONNode) throws {
        for key in ["request-headers", "response-headers"] {
            guard let headers = action.member(key) else { continue }
            guard let items = headers.array else { throw fail(.jsonModifyHeadersNotArray, "'\(key)' is \(headers.kindName), not an array", headers.range) }
            for item in items {
                guard item.members != nil else { throw fail(.jsonModifyHeadersInfoNotADictionary, "a header operation is \(item.kindName), not an object", item.range) }
                guard let operation = item.member("operation")?.string else { throw fail(.jsonModifyHeadersMissingOperation, "a header operation has no string 'operation'", item.range) }
                guard item.member("header")?.string != nil else { throw fail(.jsonModifyHeadersMissingHeader, "a header operation has no string 'header'", item.range) }
                let hasValue = item.member("value")?.string != nil
                switch operation {
                case "set", "append":
                    if !hasValue { throw fail(.jsonModifyHeadersMissingValue, "a '\(operation)' operation has no string 'value'", item.range) }
                case "remove":
                    break
                default:
                    throw fail(.jsonModifyHeadersInvalidOperation, "the operation '\(operation)' is not set, append or remove", item.member("operation")!.range)
                }
            }
        }
        // `getInteger`: a number (WebKit truncates a fraction), not negative.
        guard let priority = action.member("priority"), let number = priority.number, number >= 0 else {
            throw fail(.jsonModifyHeadersInvalidPriority, "the priority is \(action.member("priority").map { $0.number.map { "\($0)" } ?? $0.kindName } ?? "missing")", action.member("priority")?.range ?? action.range)
        }
        // WebKit reads it into an `int`; a larger number has no defined value there.
        if number > Double(Int32.max) {
            throw fail(.jsonModifyHeadersInvalidPriority, "the priority \(number) does not fit WebKit's 32-bit integer (at most \(Int32.max))", priority.range)
        }
    }

    // MARK: Regexes (`compileRuleList` → `JSONInvalidRegex`)

    private mutating func checkRegexes(_ rule: JSONNode, urlFilter: JSONNode, caseSensitivity: [String: Bool]) throws {
        let trigger = rule.member("trigger")!
        try checkRegex(urlFilter.string!, caseSensitive: caseSensitivity["url-filter-is-case-sensitive"] ?? false, field: "url-filter", range: urlFilter.range)
        for kind in ConditionKind.allCases {
            guard let entries = trigger.member(kind.rawValue)?.array else { continue }
            let isTop = kind == .ifTopURL || kind == .unlessTopURL || kind.takesDomains
            let caseSensitive = caseSensitivity[isTop ? "top-url-filter-is-case-sensitive" : "frame-url-filter-is-case-sensitive"] ?? false
            for entry in entries {
                let text = entry.string!
                let pattern = kind.takesDomains ? WebKitDomainCondition.regex(for: text) : text
                try checkRegex(pattern, caseSensitive: caseSensitive, field: kind.takesDomains ? "\(kind.rawValue) domain '\(text)' (as the regex '\(pattern)')" : kind.rawValue, range: entry.range, spanIsInSource: !kind.takesDomains)
            }
        }
    }

    /// `spanIsInSource`: the pattern is the string at `range` itself (not a regex WebKit derives
    /// from it), so the offending characters can be pointed at.
    private mutating func checkRegex(_ pattern: String, caseSensitive: Bool, field: String, range: SourceRange, spanIsInSource: Bool = true) throws {
        let result = URLFilterParser.parse(pattern, caseSensitive: caseSensitive)
        if case .matchesEverything = result, spanIsInSource { matchingEverything.append(range) }
        guard case .rejected(let problem) = result else { return }
        let reason = problem.syntaxError.map { "\(problem.status.webKitMessage) (\($0.message))" } ?? problem.status.webKitMessage
        let stop = fail(.jsonInvalidRegex, "the \(field) is refused by WebKit's url-filter parser: \(reason)", range)
        if spanIsInSource { issues[issues.count - 1].stringSpan = problem.span.offset..<(problem.span.offset + problem.span.length) }
        throw stop
    }
}

/// The regex WebKit matches against the top URL for an `if-domain`/`unless-domain` entry
/// (`getDomainList`): scheme, `([^/]*\.)*` for a leading `*`, the domain with only `\ { } [ . ?
/// * $` escaped (`[` is listed twice in WebKit's table and `]` never), then `[:/]`.
public enum WebKitDomainCondition {
    public static func regex(for domain: String) -> String {
        var body = Substring(domain)
        let includesSubdomains = body.hasPrefix("*")
        if includesSubdomains { body = body.dropFirst() }
        // Escaped code unit by code unit, as WebKit walks the string's UTF-16 units: every
        // escaped character is ASCII, and no byte of a longer UTF-8 sequence is ASCII, so the
        // bytes give the same answer (walking Characters made a real list's 17,740 domain
        // entries 4 % of building its engine, and would leave a `.` followed by a combining
        // mark unescaped, where WebKit escapes it).
        var bytes: [UInt8] = Array("[a-z][a-z+.-]*:\\/\\/".utf8)
        if includesSubdomains { bytes += "([^/]*\\.)*".utf8 }
        bytes.reserveCapacity(bytes.count + body.utf8.count * 2 + 4)
        for byte in body.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "."),
                 UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "$"):
                bytes.append(UInt8(ascii: "\\"))
            default: break
            }
            bytes.append(byte)
        }
        bytes += "[:/]".utf8
        return String(decoding: bytes, as: UTF8.self)
    }
}
