import WebPolicyRuntime

/// A policy with its includes merged: what lint rules, the compiler and the simulator see.
///
/// `documents` lists every file once, included files before their includer and in `include:`
/// order (depth first), so each section is the concatenation of the files' sections in that
/// order — content-rule order, which `ignore-previous-rules` depends on, is predictable.
public struct Policy: Sendable {
    public let documents: [PolicyDocument]
    // The merged sections, built once: rules read them many times.
    public let httpAllowlist: [HTTPAllowlistEntry]
    public let schemeAllowlist: [SchemeAllowlistEntry]
    public let contentRules: [ContentRule]
    public let cookies: [CookieRule]
    public let interception: [InterceptionRule]
    /// `navigation:`: pages and frames of every file, in order; `otherwise` and `new-windows`
    /// as the last file that sets them says (the including file after those it includes).
    public let navigation: NavigationSection?
    /// `app-bound-domains:`: domains of every file, in order; `limit-navigations` as the last
    /// file that sets it says.
    public let appBoundDomains: AppBoundDomainsSection?
    /// `bridges:` of every file, in order.
    public let bridges: [BridgeDeclaration]
    /// `webview:`: each key as the last file that sets it says.
    public let webView: WebViewSection?
    /// The content-blocker lists the documents reference (`content-rule-lists:`), read and
    /// checked by the loader, in document order.
    public internal(set) var contentRuleLists: [ExternalContentRuleList] = []

    public init(documents: [PolicyDocument]) {
        precondition(!documents.isEmpty)
        self.documents = documents
        httpAllowlist = documents.flatMap(\.httpAllowlist)
        schemeAllowlist = documents.flatMap(\.schemeAllowlist)
        contentRules = documents.count == 1 ? documents[0].contentRules : documents.flatMap(\.contentRules)
        cookies = documents.flatMap(\.cookies)
        interception = documents.flatMap(\.interception)
        navigation = Self.merged(documents.compactMap(\.navigation))
        appBoundDomains = Self.merged(documents.compactMap(\.appBoundDomains))
        bridges = documents.flatMap(\.bridges)
        webView = Self.merged(documents.compactMap(\.webView))
    }

    private static func merged(_ sections: [WebViewSection]) -> WebViewSection? {
        guard var merged = sections.last else { return nil }
        func last<T>(_ key: KeyPath<WebViewSection, T?>) -> T? { sections.last { $0[keyPath: key] != nil }?[keyPath: key] }
        merged.javaScript = last(\.javaScript)
        merged.javaScriptCanOpenWindows = last(\.javaScriptCanOpenWindows)
        merged.inspectable = last(\.inspectable)
        merged.fileAccess = last(\.fileAccess)
        merged.dataDetectors = last(\.dataDetectors)
        merged.upgradeKnownHostsToHTTPS = last(\.upgradeKnownHostsToHTTPS)
        merged.fraudulentWebsiteWarning = last(\.fraudulentWebsiteWarning)
        return merged
    }

    private static func merged(_ sections: [NavigationSection]) -> NavigationSection? {
        guard var merged = sections.last else { return nil }
        merged.pages = sections.flatMap(\.pages)
        merged.frames = sections.flatMap(\.frames)
        merged.otherwise = sections.last { $0.otherwise != nil }?.otherwise
        merged.newWindows = sections.last { $0.newWindows != nil }?.newWindows
        return merged
    }

    private static func merged(_ sections: [AppBoundDomainsSection]) -> AppBoundDomainsSection? {
        guard var merged = sections.last else { return nil }
        let domains = sections.flatMap { $0.domains?.value ?? [] }
        if let last = sections.last(where: { $0.domains != nil })?.domains { merged.domains = Located(domains, at: last.location) }
        merged.limitNavigations = sections.last { $0.limitNavigations != nil }?.limitNavigations
        return merged
    }

    /// The file that was asked for; its `name` and `target` speak for the whole policy.
    public var root: PolicyDocument { documents[documents.count - 1] }

    public var name: String? { root.name?.value }
    public var targetVersion: OSVersion { root.target?.ios?.value ?? .defaultTarget }
    public var distribution: Distribution { root.target?.distribution?.value ?? .appStore }
}
