import Foundation
import WebPolicyRuntime

/// The runtime manifest of a policy (`Manifest`, in WebPolicyRuntime): what the app's own code
/// enforces — the http and scheme allowlists for its navigation delegate, the cookies to
/// inject, the interception rules for its scheme handlers — and the compiled content-rule
/// lists with where each rule came from. `webpolicy simulate` decides with the same value,
/// built here from the policy, that the app decodes from the file compile writes.
public enum RuntimeManifest {
    public struct ListFile: Sendable {
        public var identifier: String
        public var fileName: String
        public var rules: [LoweredRule]
        /// The SHA-256 of the list's file; nil when the list is not written (simulate).
        public var sha256: String?
        /// The engine image written beside the list; nil when none is (simulate).
        public var image: String?
        /// A `content-rule-lists:` list, copied as it is: its rules come from the entry.
        public var external: (reference: ContentRuleListReference, ruleCount: Int)? = nil

        public init(identifier: String, fileName: String, rules: [LoweredRule], sha256: String? = nil, image: String? = nil,
                    external: (reference: ContentRuleListReference, ruleCount: Int)? = nil) {
            self.identifier = identifier
            self.fileName = fileName
            self.rules = rules
            self.sha256 = sha256
            self.image = image
            self.external = external
        }
    }

    /// The manifest as the policy gives it, locations as loaded (paths as the user named them).
    public static func make(_ policy: Policy, lists: [ListFile]) -> Manifest {
        var manifest = Manifest(policyName: policy.name ?? "", policyDescription: policy.root.description?.value,
                                targetIOS: policy.targetVersion.description, distribution: policy.distribution.rawValue)
        manifest.httpAllowlist = policy.httpAllowlist.map { entry in
            Manifest.HTTPAllowlistEntry(host: Manifest.HostMatch(pattern: entry.host.value, includeSubdomains: entry.includeSubdomains?.value ?? false),
                                        reason: entry.reason?.value, location: entry.location)
        }
        manifest.schemeAllowlist = policy.schemeAllowlist.map { entry in
            Manifest.SchemeAllowlistEntry(scheme: entry.scheme.value, hosts: entry.hosts?.value.map(\.value),
                                          paths: entry.paths?.value.map(\.value), location: entry.location)
        }
        manifest.cookies = policy.cookies.map(cookie)
        manifest.interception = policy.interception.map(interception)
        manifest.navigation = policy.navigation.map(navigation)
        manifest.appBoundDomains = policy.appBoundDomains.map { section in
            // Reasons name what refuses a navigation: `limit-navigations`, where it is written.
            AppBoundDomains(entries: section.domains?.value.map(\.value) ?? [], limitNavigations: section.limitNavigations?.value ?? false,
                            location: section.limitNavigations?.location ?? section.location)
        }
        manifest.bridges = policy.bridges.map(bridge)
        manifest.webView = policy.webView?.settings
        manifest.contentRuleLists = lists.map { list in
            var entry: Manifest.ContentRuleList
            if let external = list.external {
                // The whole list comes from its entry; its own lines are in its file.
                entry = Manifest.ContentRuleList(identifier: list.identifier, file: list.fileName, ruleCount: external.ruleCount, sha256: list.sha256,
                                                 sources: [Manifest.RuleSource(firstRule: 0, ruleCount: external.ruleCount, id: external.reference.id?.value,
                                                                               location: external.reference.location)])
            } else {
                entry = Manifest.ContentRuleList(identifier: list.identifier, file: list.fileName, ruleCount: list.rules.count,
                                                 sha256: list.sha256, sources: sources(of: list.rules))
            }
            entry.image = list.image
            return entry
        }
        return manifest
    }

    /// The manifest file: locations relative to the policy's folder, so the same policy gives
    /// the same bytes from any working folder.
    public static func render(_ policy: Policy, lists: [ListFile]) -> String {
        let policyFolder = (policy.root.file.path as NSString).deletingLastPathComponent
        var relativePaths: [String: String] = [:]
        return make(policy, lists: lists).serialized { path in
            if let known = relativePaths[path] { return known }
            let relative = RelativePath.of(path, from: policyFolder)
            relativePaths[path] = relative
            return relative
        }
    }

    /// Which policy rule each stretch of a list comes from (a `hosts:` rule expands to many
    /// consecutive rules), so the app can map a WebKit rule index back to the policy.
    static func sources(of rules: [LoweredRule]) -> [Manifest.RuleSource] {
        var entries: [Manifest.RuleSource] = []
        var index = 0
        while index < rules.count {
            let source = rules[index].source
            var end = index + 1
            while end < rules.count, rules[end].source === source { end += 1 }
            entries.append(Manifest.RuleSource(firstRule: index, ruleCount: end - index, id: source.id?.value, location: source.location))
            index = end
        }
        return entries
    }

    static func cookie(_ cookie: CookieRule) -> Manifest.Cookie {
        var result = Manifest.Cookie(name: cookie.name.value, value: cookie.value.value, domain: cookie.domain.value)
        result.hostOnly = cookie.hostOnly?.value ?? false
        result.path = cookie.path?.value ?? "/"
        result.secure = cookie.secure?.value ?? false
        result.httpOnly = cookie.httpOnly?.value ?? false
        result.sameSite = cookie.sameSite?.value
        result.expires = cookie.expires?.value
        result.maxAge = cookie.maxAge?.value
        result.via = cookie.via?.value ?? .cookieStore
        result.location = cookie.location
        return result
    }

    static func navigation(_ section: NavigationSection) -> NavigationRules {
        func entry(_ entry: NavigationEntry) -> NavigationRules.Entry {
            NavigationRules.Entry(host: Manifest.HostMatch(pattern: entry.host.value, includeSubdomains: entry.includeSubdomains?.value ?? false),
                                  schemes: entry.schemeNames, paths: entry.paths?.value.map(\.value), location: entry.location)
        }
        return NavigationRules(pages: section.pages.map(entry), frames: section.frames.map(entry),
                               otherwise: section.otherwise?.value ?? .openExternally, newWindows: section.newWindows?.value ?? .sameView,
                               location: section.location, otherwiseLocation: section.otherwise?.location, newWindowsLocation: section.newWindows?.location)
    }

    static func bridge(_ declaration: BridgeDeclaration) -> Bridge {
        Bridge(name: declaration.name.value, origins: declaration.runtimeOrigins, frames: declaration.framesValue, world: declaration.worldValue,
               reply: declaration.replyValue, location: declaration.location, framesLocation: declaration.frames?.location,
               originsLocation: declaration.origins?.location)
    }

    static func interception(_ rule: InterceptionRule) -> Manifest.Interception {
        var result = Manifest.Interception(id: rule.id?.value, scheme: rule.scheme.value)
        result.hosts = rule.hosts?.value.map { Manifest.HostMatch(pattern: $0.value) }
        result.paths = rule.paths?.value.map(\.value)
        result.methods = rule.methods?.value.map { $0.value.rawValue.uppercased() }
        result.serve = rule.serve?.value
        result.handler = rule.handler?.value
        result.location = rule.location
        return result
    }
}
