import Foundation

/// One JSON file with what the app's own code enforces: the http and scheme allowlists for its
/// navigation delegate (`shouldAllowHttpRequest`, `shouldAllowScheme`), the cookies to inject,
/// the interception rules for its scheme handlers, and the compiled content-rule lists with
/// where each rule came from. Described by `schemas/runtime-manifest.schema.json`; defaults are
/// written out, so the app needs no knowledge of the policy format.
public enum RuntimeManifest {
    public static let formatVersion = 1

    public struct ListFile: Sendable {
        public var identifier: String
        public var fileName: String
        public var rules: [LoweredRule]
    }

    public static func render(_ policy: Policy, lists: [ListFile]) -> String {
        var top: [(String, JSONValue)] = [("webpolicyManifest", .int(formatVersion))]
        var policyInfo: [(String, JSONValue)] = [("name", .string(policy.name ?? ""))]
        if let description = policy.root.description { policyInfo.append(("description", .string(description.value))) }
        top.append(("policy", .object(policyInfo)))
        top.append(("target", .object([("ios", .string(policy.targetVersion.description)), ("distribution", .string(policy.distribution.rawValue))])))
        top.append(("httpAllowlist", .array(policy.httpAllowlist.map { entry in
            var members = hostMatch(entry.host.value, includeSubdomains: entry.includeSubdomains?.value ?? false)
            if let reason = entry.reason { members.append(("reason", .string(reason.value))) }
            return .object(members)
        })))
        top.append(("schemeAllowlist", .array(policy.schemeAllowlist.map { entry in
            var members: [(String, JSONValue)] = [("scheme", .string(entry.scheme.value.lowercased()))]
            if let hosts = entry.hosts { members.append(("hosts", .array(hosts.value.map { .string($0.value) }))) }
            if let paths = entry.paths { members.append(("paths", .array(paths.value.map { .string($0.value) }))) }
            return .object(members)
        })))
        top.append(("cookies", .array(policy.cookies.map(cookie))))
        top.append(("interception", .array(policy.interception.map(interception))))
        // Paths are relative to the policy's folder: the same bytes from any working folder.
        let policyFolder = (policy.root.file.path as NSString).deletingLastPathComponent
        top.append(("contentRuleLists", .array(lists.map { list in
            .object([
                ("identifier", .string(list.identifier)),
                ("file", .string(list.fileName)),
                ("ruleCount", .int(list.rules.count)),
                ("sources", .array(sources(of: list.rules, relativeTo: policyFolder))),
            ])
        })))
        return JSONValue.object(top).serialized()
    }

    /// Which policy rule each stretch of a list comes from (a `hosts:` rule expands to many
    /// consecutive rules), so the app can map a WebKit rule index back to the policy.
    static func sources(of rules: [LoweredRule], relativeTo folder: String) -> [JSONValue] {
        var entries: [JSONValue] = []
        var relativePaths: [String: String] = [:]
        var index = 0
        while index < rules.count {
            let source = rules[index].source
            var end = index + 1
            while end < rules.count, rules[end].source === source { end += 1 }
            var members: [(String, JSONValue)] = [("firstRule", .int(index)), ("ruleCount", .int(end - index))]
            if let id = source.id { members.append(("id", .string(id.value))) }
            let path = source.location.path
            if relativePaths[path] == nil { relativePaths[path] = RelativePath.of(path, from: folder) }
            members.append(("location", .string("\(relativePaths[path]!):\(source.location.start)")))
            entries.append(.object(members))
            index = end
        }
        return entries
    }

    /// A host pattern as the app matches it: the host, and whether its subdomains are meant.
    static func hostMatch(_ pattern: String, includeSubdomains: Bool = false) -> [(String, JSONValue)] {
        if pattern.hasPrefix("*.") {
            return [("host", .string(String(pattern.dropFirst(2)))), ("match", .string("subdomains"))]
        }
        return [("host", .string(pattern)), ("match", .string(includeSubdomains ? "domain-and-subdomains" : "exact"))]
    }

    static func cookie(_ cookie: CookieRule) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(cookie.name.value)),
            ("value", .string(cookie.value.value)),
            ("domain", .string(cookie.domain.value)),
            ("hostOnly", .bool(cookie.hostOnly?.value ?? false)),
            ("path", .string(cookie.path?.value ?? "/")),
            ("secure", .bool(cookie.secure?.value ?? false)),
            ("httpOnly", .bool(cookie.httpOnly?.value ?? false)),
        ]
        if let sameSite = cookie.sameSite { members.append(("sameSite", .string(sameSite.value.rawValue))) }
        if let expires = cookie.expires { members.append(("expires", .string(expires.value))) }
        if let maxAge = cookie.maxAge { members.append(("maxAge", .int(maxAge.value))) }
        members.append(("via", .string((cookie.via?.value ?? .cookieStore).rawValue)))
        return .object(members)
    }

    static func interception(_ rule: InterceptionRule) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let id = rule.id { members.append(("id", .string(id.value))) }
        members.append(("scheme", .string(rule.scheme.value.lowercased())))
        if let hosts = rule.hosts { members.append(("hosts", .array(hosts.value.map { .object(hostMatch($0.value)) }))) }
        if let paths = rule.paths { members.append(("paths", .array(paths.value.map { .string($0.value) }))) }
        if let methods = rule.methods { members.append(("methods", .array(methods.value.map { .string($0.value.rawValue.uppercased()) }))) }
        if let serve = rule.serve { members.append(("serve", .string(serve.value))) }
        if let handler = rule.handler { members.append(("handler", .string(handler.value))) }
        return .object(members)
    }
}
