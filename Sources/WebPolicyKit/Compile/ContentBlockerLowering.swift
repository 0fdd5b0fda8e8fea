import WebPolicyRuntime

/// One rule of WebKit content-blocker JSON, with the policy rule it comes from and the trigger
/// facts the splitter needs.
public struct LoweredRule: Sendable {
    public var json: JSONValue
    public var source: ContentRule
    /// What the sugar expanded to, for messages ("host ads.example.net", "method post").
    public var expansion: String?
    public var action: ContentActionType
    public var urlFilter: String
    public var urlFilterIsCaseSensitive: Bool
    public var resourceTypes: [ResourceType]?
    public var loadTypes: [LoadType]?
    public var loadContexts: [LoadContext]?
    public var requestMethod: RequestMethod?

    /// How messages name the rule: its id, else its position.
    public var name: String {
        let base = source.id.map { "'\($0.value)'" } ?? "the rule at \(source.location.path):\(source.location.start)"
        return expansion.map { "\(base) (\($0))" } ?? base
    }
}

/// Lowers a policy's content rules (includes merged, in order) to WebKit's JSON: every trigger
/// field and action type, keys in a fixed order (WebKit's `loadTrigger` order), values as
/// written (request methods in lowercase). Sugar WebKit lacks is expanded here:
/// - `hosts:` becomes one anchored, escaped url-filter per host — `example.com` and
///   `*.example.com` in the same list merge into one filter, `^[^:]+://+([^:/]+\.)?example\.com[:/]`;
/// - a `request-method` list becomes one rule per method, as WebKit takes one method per rule.
public enum ContentBlockerLowering {
    public static func lower(_ policy: Policy) -> [LoweredRule] {
        policy.contentRules.flatMap(lower)
    }

    public static func lower(_ rule: ContentRule) -> [LoweredRule] {
        let filters: [(filter: String, expansion: String?)]
        if let urlFilter = rule.trigger.urlFilter {
            filters = [(urlFilter.value, nil)]
        } else {
            filters = hostFilters(rule.trigger.hosts?.value.map(\.value) ?? []).map { ($0.filter, "host \($0.hosts)") }
        }
        let methods: [RequestMethod?] = rule.trigger.requestMethods.map { $0.value.map { Optional($0.value) } } ?? [nil]
        var lowered: [LoweredRule] = []
        for (filter, hostExpansion) in filters {
            for method in methods {
                var expansion = hostExpansion
                if let method, methods.count > 1 { expansion = [expansion, "method \(method.rawValue)"].compactMap { $0 }.joined(separator: ", ") }
                lowered.append(LoweredRule(
                    json: .object([("trigger", trigger(rule, urlFilter: filter, method: method)), ("action", action(rule))]),
                    source: rule, expansion: expansion, action: rule.action.value, urlFilter: filter,
                    urlFilterIsCaseSensitive: rule.trigger.urlFilterIsCaseSensitive?.value ?? false,
                    resourceTypes: rule.trigger.resourceTypes?.value.map(\.value),
                    loadTypes: rule.trigger.loadTypes?.value.map(\.value),
                    loadContexts: rule.trigger.loadContexts?.value.map(\.value),
                    requestMethod: method
                ))
            }
        }
        return lowered
    }

    /// `lower(rule).count`, without building the rules.
    public static func loweredCount(of rule: ContentRule) -> Int {
        let filters = rule.trigger.urlFilter != nil ? 1 : hostGroups(rule.trigger.hosts?.value.map(\.value) ?? []).count
        return filters * (rule.trigger.requestMethods?.value.count ?? 1)
    }

    // MARK: Hosts

    /// The hosts in order as scopes, duplicates dropped, `x` and `*.x` merged into one.
    static func hostGroups(_ hosts: [String]) -> [HostScope] {
        let listed = Set(hosts)
        var seen = Set<String>()
        var groups: [HostScope] = []
        for host in hosts where seen.insert(host).inserted {
            let scope = HostScope(pattern: host)
            // `*.x` beside `x` (either first): one scope of both.
            let partner = scope.includesHost ? "*." + host : scope.host
            if listed.contains(partner) {
                seen.insert(partner)
                groups.append(HostScope(host: scope.host, kind: .domainAndSubdomains))
            } else {
                groups.append(scope)
            }
        }
        return groups
    }

    /// One url-filter per host group.
    static func hostFilters(_ hosts: [String]) -> [(filter: String, hosts: String)] {
        hostGroups(hosts).map { scope in
            let host = scope.host
            switch scope.kind {
            case .exact: return ("^[^:]+://+" + escape(host) + "[:/]", host)
            case .subdomains: return ("^[^:]+://+[^:/]+\\." + escape(host) + "[:/]", "*." + host)
            case .domainAndSubdomains: return ("^[^:]+://+([^:/]+\\.)?" + escape(host) + "[:/]", "\(host) and its subdomains")
            }
        }
    }

    /// A host as a url-filter literal. IPv6 literals appear in URLs in brackets.
    static func escape(_ host: String) -> String {
        var literal = host
        if host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") { literal = "[" + host + "]" }
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(literal.unicodeScalars.count * 2)
        for scalar in literal.unicodeScalars {
            if Self.regexSpecials.contains(scalar) { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    private static let regexSpecials = Set(".[]()?*+^$|\\{}".unicodeScalars)

    // MARK: Trigger and action

    static func trigger(_ rule: ContentRule, urlFilter: String, method: RequestMethod?) -> JSONValue {
        let trigger = rule.trigger
        var members: [(String, JSONValue)] = [("url-filter", .string(urlFilter))]
        if let value = trigger.urlFilterIsCaseSensitive { members.append(("url-filter-is-case-sensitive", .bool(value.value))) }
        if let value = trigger.topURLFilterIsCaseSensitive { members.append(("top-url-filter-is-case-sensitive", .bool(value.value))) }
        if let value = trigger.frameURLFilterIsCaseSensitive { members.append(("frame-url-filter-is-case-sensitive", .bool(value.value))) }
        if let types = trigger.resourceTypes { members.append(("resource-type", .array(types.value.map { .string($0.value.rawValue) }))) }
        if let types = trigger.loadTypes { members.append(("load-type", .array(types.value.map { .string($0.value.rawValue) }))) }
        if let contexts = trigger.loadContexts { members.append(("load-context", .array(contexts.value.map { .string($0.value.rawValue) }))) }
        // WebKit compares methods case-insensitively; the list says them in lowercase.
        if let method { members.append(("request-method", .string(method.rawValue))) }
        for condition in trigger.conditions {
            members.append((condition.kind.rawValue, .array(condition.values.map { .string($0.value) })))
        }
        return .object(members)
    }

    static func action(_ rule: ContentRule) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(rule.action.value.rawValue))]
        switch rule.action.value {
        case .cssDisplayNone:
            if let selector = rule.selector { members.append(("selector", .string(selector.value))) }
        case .notify:
            if let notification = rule.notification { members.append(("notification", .string(notification.value))) }
        case .redirect:
            if let redirect = rule.redirect { members.append(("redirect", lower(redirect))) }
        case .modifyHeaders:
            if let priority = rule.priority { members.append(("priority", .int(priority.value))) }
            if let headers = rule.requestHeaders { members.append(("request-headers", .array(headers.value.map(lower)))) }
            if let headers = rule.responseHeaders { members.append(("response-headers", .array(headers.value.map(lower)))) }
        case .block, .blockCookies, .ignorePreviousRules, .ignoreFollowingRules, .makeHTTPS:
            break
        }
        return .object(members)
    }

    static func lower(_ redirect: Redirect) -> JSONValue {
        switch redirect {
        case .url(let url): return .object([("url", .string(url.value))])
        case .extensionPath(let path): return .object([("extension-path", .string(path.value))])
        case .regexSubstitution(let substitution): return .object([("regex-substitution", .string(substitution.value))])
        case .transform(let transform):
            var members: [(String, JSONValue)] = []
            let strings: [(String, LocatedString?)] = [
                ("scheme", transform.scheme), ("host", transform.host), ("port", transform.port), ("path", transform.path),
                ("query", transform.query), ("fragment", transform.fragment), ("username", transform.username), ("password", transform.password),
            ]
            for (key, value) in strings { if let value { members.append((key, .string(value.value))) } }
            if let query = transform.queryTransform {
                var queryMembers: [(String, JSONValue)] = []
                if let remove = query.removeParameters { queryMembers.append(("remove-parameters", .array(remove.value.map { .string($0.value) }))) }
                if let add = query.addOrReplaceParameters {
                    queryMembers.append(("add-or-replace-parameters", .array(add.value.map { parameter in
                        var parameterMembers: [(String, JSONValue)] = [("key", .string(parameter.key.value)), ("value", .string(parameter.value.value))]
                        if let replaceOnly = parameter.replaceOnly { parameterMembers.append(("replace-only", .bool(replaceOnly.value))) }
                        return .object(parameterMembers)
                    })))
                }
                members.append(("query-transform", .object(queryMembers)))
            }
            return .object([("transform", .object(members))])
        }
    }

    static func lower(_ operation: HeaderOperation) -> JSONValue {
        var members: [(String, JSONValue)] = [("operation", .string(operation.operation.value.rawValue)), ("header", .string(operation.header.value))]
        if let value = operation.value { members.append(("value", .string(value.value))) }
        return .object(members)
    }
}
