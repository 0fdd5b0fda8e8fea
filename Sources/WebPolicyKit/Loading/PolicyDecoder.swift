import WebPolicyRuntime

/// Turns the YAML tree of one policy file into a `PolicyDocument`, reporting every structural
/// problem it meets (unknown keys, wrong kinds, missing keys, bad enum values) and carrying on.
/// Value checks that go beyond structure — host syntax, url-filter regexes — are lint rules.
struct PolicyDecoder {
    /// The policy format versions this webpolicy reads.
    static let supportedVersions = [1]

    /// Shared with the sections decoded in files of their own (`NavigationDecoder.swift`).
    var reader: NodeReader

    init(file: SourceFile) {
        reader = NodeReader(file: file)
    }

    static func decode(_ root: YAMLNode, file: SourceFile) -> (document: PolicyDocument, diagnostics: [Diagnostic]) {
        var decoder = PolicyDecoder(file: file)
        let document = decoder.decodeDocument(root)
        return (document, decoder.reader.diagnostics)
    }

    private mutating func decodeDocument(_ root: YAMLNode) -> PolicyDocument {
        var document = PolicyDocument(file: reader.file)
        if root.sequence != nil, InputKind.of(bytes: Array(reader.file.text.utf8.prefix(64))) == .contentBlockerList {
            reader.error(.wrongType, "this file is a JSON array — a WebKit content-blocker list — not a policy", at: root.range,
                         hint: "'webpolicy import' turns a list into a policy; lint reads it as it is, and simulate and verify take it with --content-rules")
            return document
        }
        guard let fields = reader.fields(of: root, context: "the policy", allowed: PolicyKeys.topLevel, allowsExtensions: true) else {
            return document
        }
        document.version = decodeVersion(fields)
        document.name = reader.string("name", in: fields, required: true)
        document.description = reader.string("description", in: fields)
        if let node = fields.value("target") { document.target = decodeTarget(node) }
        document.includes = reader.stringList("include", in: fields)?.value ?? []
        document.httpAllowlist = section("http-allowlist", in: fields) { $0.decodeHTTPAllowlistEntry($1) }
        document.schemeAllowlist = section("scheme-allowlist", in: fields) { $0.decodeSchemeAllowlistEntry($1) }
        document.contentRules = section("content-rules", in: fields) { $0.decodeContentRule($1) }
        document.contentRuleLists = section("content-rule-lists", in: fields) { $0.decodeContentRuleList($1) }
        document.cookies = section("cookies", in: fields) { $0.decodeCookie($1) }
        document.interception = section("interception", in: fields) { $0.decodeInterceptionRule($1) }
        if let node = fields.value("navigation") { document.navigation = decodeNavigation(node) }
        if let node = fields.value("app-bound-domains") { document.appBoundDomains = decodeAppBoundDomains(node) }
        document.bridges = section("bridges", in: fields) { $0.decodeBridge($1) }
        if let node = fields.value("webview") { document.webView = decodeWebView(node) }
        return document
    }

    /// Decodes the entries of a section. Entries are independent, so each gets its own decoder,
    /// on all cores for big sections; values and diagnostics are merged back in entry order.
    mutating func section<T: Sendable>(_ key: String, in fields: Fields, _ decode: @escaping @Sendable (inout PolicyDecoder, YAMLNode) -> T?) -> [T] {
        guard let node = fields.value(key) else { return [] }
        guard let items = node.sequence else {
            reader.wrongKind(node, expected: "a list", what: "'\(key)'")
            return []
        }
        let file = reader.file
        let decoded = items.parallelMap { item in
            var decoder = PolicyDecoder(file: file)
            let value = decode(&decoder, item)
            return (value: value, diagnostics: decoder.reader.diagnostics)
        }
        for entry in decoded { reader.append(entry.diagnostics) }
        return decoded.compactMap(\.value)
    }

    private mutating func decodeVersion(_ fields: Fields) -> Located<Int>? {
        guard let node = fields.value("webpolicy") else {
            reader.error(.missingKey, "the policy is missing the format version 'webpolicy: 1'", at: SourceRange(at: fields.node.range.start),
                         hint: "start the file with 'webpolicy: 1'")
            return nil
        }
        guard let scalar = node.scalar, case .int(let version) = scalar.resolved else {
            reader.error(.unsupportedVersion, "'webpolicy' must be the format version number 1, but got '\(node.scalar?.value ?? "a collection")'",
                         at: node.range, hint: "write 'webpolicy: 1' without quotes")
            return nil
        }
        guard Self.supportedVersions.contains(version) else {
            reader.error(.unsupportedVersion, "unsupported policy format version \(version); this webpolicy reads version \(Suggestions.list(Self.supportedVersions.map(String.init)))",
                         at: node.range, hint: version > 1 ? "the policy was written for a newer webpolicy: upgrade it" : "write 'webpolicy: 1'")
            return nil
        }
        return Located(version, at: reader.location(node))
    }

    private mutating func decodeTarget(_ node: YAMLNode) -> Target? {
        guard let fields = reader.fields(of: node, context: "the target", allowed: PolicyKeys.target) else { return nil }
        var target = Target(location: reader.location(node))
        if let ios = reader.string("ios", in: fields) {
            if let version = OSVersion(parsing: ios.value) {
                if version < OSVersion.minimumSupported {
                    reader.error(.invalidValue, "'ios' must be \(OSVersion.minimumSupported) or later, but got \(ios.value)", at: ios.location.range,
                                 hint: "WKWebView content rule lists (WKContentRuleListStore) arrived in iOS 11")
                } else {
                    target.ios = Located(version, at: ios.location)
                }
            } else {
                reader.error(.invalidValue, "'ios' must be a version such as \"16\" or \"16.4\", but got '\(ios.value)'", at: ios.location.range)
            }
        }
        target.distribution = reader.choice("distribution", in: fields, as: Distribution.self)
        return target
    }

    // MARK: Lists the policy does not own

    private mutating func decodeContentRuleList(_ node: YAMLNode) -> ContentRuleListReference? {
        guard let fields = reader.fields(of: node, context: "a content-rule-lists entry", allowed: PolicyKeys.contentRuleListEntry) else { return nil }
        let id = reader.string("id", in: fields)
        guard let path = reader.string("path", in: fields, required: true) else { return nil }
        return ContentRuleListReference(location: reader.location(node), path: path, id: id)
    }

    // MARK: Allowlists

    private mutating func decodeHTTPAllowlistEntry(_ node: YAMLNode) -> HTTPAllowlistEntry? {
        guard let fields = reader.fields(of: node, context: "an http-allowlist entry", allowed: PolicyKeys.httpAllowlistEntry) else { return nil }
        let includeSubdomains = reader.bool("include-subdomains", in: fields)
        let reason = reader.string("reason", in: fields)
        guard let host = reader.string("host", in: fields, required: true) else { return nil }
        return HTTPAllowlistEntry(location: reader.location(node), host: host, includeSubdomains: includeSubdomains, reason: reason)
    }

    private mutating func decodeSchemeAllowlistEntry(_ node: YAMLNode) -> SchemeAllowlistEntry? {
        guard let fields = reader.fields(of: node, context: "a scheme-allowlist entry", allowed: PolicyKeys.schemeAllowlistEntry) else { return nil }
        let hosts = reader.stringList("hosts", in: fields)
        let paths = reader.stringList("paths", in: fields)
        let reason = reader.string("reason", in: fields)
        guard let scheme = reader.string("scheme", in: fields, required: true) else { return nil }
        return SchemeAllowlistEntry(location: reader.location(node), scheme: scheme, hosts: hosts, paths: paths, reason: reason)
    }

    // MARK: Content rules

    private mutating func decodeContentRule(_ node: YAMLNode) -> ContentRule? {
        guard let fields = reader.fields(of: node, context: "a content rule", allowed: PolicyKeys.contentRule) else { return nil }
        let id = reader.string("id", in: fields)
        let description = reader.string("description", in: fields)
        let action = reader.choice("action", in: fields, as: ContentActionType.self)
        if !fields.has("action") {
            reader.requireKey("action", in: fields, hint: "one of \(Suggestions.list(ContentActionType.allCases.map(\.rawValue)))")
        }
        let trigger = decodeTrigger(fields)
        let selector = reader.string("selector", in: fields)
        let notification = reader.string("notification", in: fields)
        let redirect = fields.value("redirect").flatMap { decodeRedirect($0) }
        let priority = reader.integer("priority", in: fields, minimum: 0, maximum: Int(Int32.max))  // WebKit reads an `int`
        let requestHeaders = reader.list("request-headers", in: fields) { reader, item in Self.decodeHeaderOperation(item, reader: &reader) }
        let responseHeaders = reader.list("response-headers", in: fields) { reader, item in Self.decodeHeaderOperation(item, reader: &reader) }
        guard let action else { return nil }
        checkActionParameters(fields, action: action)
        return ContentRule(
            location: reader.location(node), id: id, description: description, action: action, trigger: trigger,
            selector: selector, notification: notification, redirect: redirect, priority: priority,
            requestHeaders: requestHeaders, responseHeaders: responseHeaders
        )
    }

    /// Each action parameter belongs to one action, and some actions need theirs
    /// (WebKit: `JSONInvalidCSSDisplayNoneActionType`, `JSONInvalidNotification`,
    /// `JSONRedirectMissing`, `JSONModifyHeadersInvalidPriority`).
    private mutating func checkActionParameters(_ fields: Fields, action: Located<ContentActionType>) {
        for (key, owner) in PolicyKeys.actionParameters where fields.has(key) && owner != action.value {
            reader.error(.conflictingKeys, "'\(key)' belongs to the \(owner.rawValue) action, but this rule's action is '\(action.value.rawValue)'",
                         at: fields.keyRange(key)!, notes: [Diagnostic.Note("the action is set here", at: action.location)])
        }
        let required: String?
        switch action.value {
        case .cssDisplayNone: required = "selector"
        case .notify: required = "notification"
        case .redirect: required = "redirect"
        case .modifyHeaders: required = "priority"
        default: required = nil
        }
        if let key = required, !fields.has(key) {
            reader.error(.missingKey, "a \(action.value.rawValue) rule is missing the required key '\(key)'", at: action.location.range)
        }
    }

    private mutating func decodeTrigger(_ fields: Fields) -> Trigger {
        var trigger = Trigger()
        reader.exclusive(["url-filter", "hosts"], in: fields, required: true)
        trigger.urlFilter = reader.string("url-filter", in: fields)
        trigger.hosts = reader.stringList("hosts", in: fields)
        trigger.urlFilterIsCaseSensitive = reader.bool("url-filter-is-case-sensitive", in: fields)
        trigger.topURLFilterIsCaseSensitive = reader.bool("top-url-filter-is-case-sensitive", in: fields)
        trigger.frameURLFilterIsCaseSensitive = reader.bool("frame-url-filter-is-case-sensitive", in: fields)
        trigger.resourceTypes = reader.choiceList("resource-type", in: fields, as: ResourceType.self)
        trigger.loadTypes = reader.choiceList("load-type", in: fields, as: LoadType.self)
        trigger.loadContexts = reader.choiceList("load-context", in: fields, as: LoadContext.self)
        if let node = fields.value("request-method") {
            // WebKit takes a single string; a list is webpolicy sugar for one rule per method.
            if node.sequence != nil {
                trigger.requestMethods = reader.choiceList("request-method", in: fields, as: RequestMethod.self, caseInsensitive: true)
            } else if let method = reader.choice("request-method", in: fields, as: RequestMethod.self, caseInsensitive: true) {
                trigger.requestMethods = Located([method], at: method.location)
            }
        }
        // Sugar lists expand to one rule per entry: empty, the rule would vanish from the list.
        for (key, list) in [("hosts", trigger.hosts?.value.count), ("request-method", trigger.requestMethods?.value.count)] where list == 0 {
            if let node = fields.value(key) {
                reader.error(.invalidValue, "'\(key)' is an empty list, so the rule would compile to nothing", at: node.range,
                             hint: key == "hosts" ? "list at least one host, or use url-filter" : "list at least one method, or remove the key to match every method")
            }
        }
        for kind in ConditionKind.allCases {
            guard let key = fields.keyRange(kind.rawValue), let values = reader.stringList(kind.rawValue, in: fields) else { continue }
            trigger.conditions.append(Condition(kind: kind, values: values.value, location: reader.location(key.union(values.location.range)), listLocation: values.location))
        }
        trigger.conditions.sort { $0.location.range.start < $1.location.range.start }
        return trigger
    }

    private mutating func decodeRedirect(_ node: YAMLNode) -> Redirect? {
        guard let fields = reader.fields(of: node, context: "the redirect", allowed: PolicyKeys.redirect) else { return nil }
        reader.exclusive(PolicyKeys.redirect, in: fields, required: true)
        if let url = reader.string("url", in: fields) { return .url(url) }
        if let path = reader.string("extension-path", in: fields) { return .extensionPath(path) }
        if let substitution = reader.string("regex-substitution", in: fields) { return .regexSubstitution(substitution) }
        if let transform = fields.value("transform") { return decodeURLTransform(transform).map(Redirect.transform) }
        return nil
    }

    private mutating func decodeURLTransform(_ node: YAMLNode) -> URLTransform? {
        guard let fields = reader.fields(of: node, context: "the URL transform", allowed: PolicyKeys.urlTransform) else { return nil }
        var transform = URLTransform(location: reader.location(node))
        transform.scheme = reader.string("scheme", in: fields)
        transform.host = reader.string("host", in: fields)
        transform.port = reader.string("port", in: fields)
        transform.path = reader.string("path", in: fields)
        transform.query = reader.string("query", in: fields)
        transform.fragment = reader.string("fragment", in: fields)
        transform.username = reader.string("username", in: fields)
        transform.password = reader.string("password", in: fields)
        if let queryNode = fields.value("query-transform"),
           let queryFields = reader.fields(of: queryNode, context: "the query transform", allowed: PolicyKeys.queryTransform) {
            var query = QueryTransform(location: reader.location(queryNode))
            query.removeParameters = reader.stringList("remove-parameters", in: queryFields)
            query.addOrReplaceParameters = reader.list("add-or-replace-parameters", in: queryFields) { reader, item in
                guard let parameter = reader.fields(of: item, context: "an add-or-replace parameter", allowed: PolicyKeys.queryParameter) else { return nil }
                let key = reader.string("key", in: parameter, required: true)
                let value = reader.string("value", in: parameter, required: true)
                let replaceOnly = reader.bool("replace-only", in: parameter)
                guard let key, let value else { return nil }
                return QueryParameter(location: reader.location(item), key: key, value: value, replaceOnly: replaceOnly)
            }
            transform.queryTransform = query
        }
        return transform
    }

    private static func decodeHeaderOperation(_ node: YAMLNode, reader: inout NodeReader) -> HeaderOperation? {
        guard let fields = reader.fields(of: node, context: "a header operation", allowed: PolicyKeys.headerOperation) else { return nil }
        let operation = reader.choice("operation", in: fields, as: HeaderOperationType.self)
        if !fields.has("operation") { reader.requireKey("operation", in: fields, hint: "one of set, append, remove") }
        let header = reader.string("header", in: fields, required: true)
        let value = reader.string("value", in: fields)
        guard let operation, let header else { return nil }
        if operation.value != .remove && value == nil {
            reader.error(.missingKey, "a '\(operation.value.rawValue)' header operation is missing the required key 'value'", at: operation.location.range)
        }
        return HeaderOperation(location: reader.location(node), operation: operation, header: header, value: value)
    }

    // MARK: Cookies and interception

    private mutating func decodeCookie(_ node: YAMLNode) -> CookieRule? {
        guard let fields = reader.fields(of: node, context: "a cookie", allowed: PolicyKeys.cookie) else { return nil }
        let name = reader.string("name", in: fields, required: true)
        let value = reader.string("value", in: fields, required: true)
        let domain = reader.string("domain", in: fields, required: true)
        let hostOnly = reader.bool("host-only", in: fields)
        let path = reader.string("path", in: fields)
        let secure = reader.bool("secure", in: fields)
        let httpOnly = reader.bool("http-only", in: fields)
        let sameSite = reader.choice("same-site", in: fields, as: SameSite.self)
        let expires = reader.string("expires", in: fields)
        if let expires, !Self.isTimestamp(expires.value) {
            reader.error(.invalidValue, "'expires' must be a date and time such as 2027-01-31T12:00:00Z, but got '\(expires.value)'", at: expires.location.range,
                         hint: "write an RFC 3339 timestamp with a time zone, or use 'max-age' in seconds")
        }
        let maxAge = reader.integer("max-age", in: fields)
        let via = reader.choice("via", in: fields, as: CookieDelivery.self)
        let description = reader.string("description", in: fields)
        guard let name, let value, let domain else { return nil }
        return CookieRule(
            location: reader.location(node), name: name, value: value, domain: domain, hostOnly: hostOnly, path: path,
            secure: secure, httpOnly: httpOnly, sameSite: sameSite, expires: expires, maxAge: maxAge, via: via, description: description
        )
    }

    /// RFC 3339 `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    static func isTimestamp(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count, range.allSatisfy({ (48...57).contains(characters[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(characters[$1] - 48) }
        }
        guard characters.count >= 20, let month = digits(5..<7), let day = digits(8..<10), let hour = digits(11..<13),
              let minute = digits(14..<16), let second = digits(17..<19), digits(0..<4) != nil,
              characters[4] == 45, characters[7] == 45, [84, 116].contains(characters[10]), characters[13] == 58, characters[16] == 58,
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return false }
        var index = 19
        if characters[index] == 46 {
            index += 1
            let start = index
            while index < characters.count, (48...57).contains(characters[index]) { index += 1 }
            if index == start { return false }
        }
        let zone = Array(characters[index...])
        if zone == [90] || zone == [122] { return true }
        guard zone.count == 6, zone[0] == 43 || zone[0] == 45, zone[3] == 58 else { return false }
        return [1, 2, 4, 5].allSatisfy { (48...57).contains(zone[$0]) }
    }

    private mutating func decodeInterceptionRule(_ node: YAMLNode) -> InterceptionRule? {
        guard let fields = reader.fields(of: node, context: "an interception rule", allowed: PolicyKeys.interceptionRule) else { return nil }
        let id = reader.string("id", in: fields)
        let description = reader.string("description", in: fields)
        let scheme = reader.string("scheme", in: fields, required: true)
        let hosts = reader.stringList("hosts", in: fields)
        let paths = reader.stringList("paths", in: fields)
        let methods = reader.choiceList("methods", in: fields, as: RequestMethod.self, caseInsensitive: true)
        reader.exclusive(["serve", "handler"], in: fields, required: true)
        let serve = reader.string("serve", in: fields)
        let handler = reader.string("handler", in: fields)
        guard let scheme else { return nil }
        return InterceptionRule(
            location: reader.location(node), id: id, description: description, scheme: scheme, hosts: hosts, paths: paths,
            methods: methods, serve: serve, handler: handler
        )
    }
}
