import WebPolicyRuntime

/// A policy with its includes merged: what lint rules, the compiler and the simulator see.
///
/// `documents` lists every file once, included files before their includer and in `include:`
/// order (depth first), so each section is the concatenation of the files' sections in that
/// order — content-rule order, which `ignore-previous-rules` depends on, is predictable.
public struct Policy: Sendable {
    public let documents: [PolicyDocument]
    // The merged sections, built once: rules read them many times. Each section merges
    // itself (`PolicySection.merge`): a list section concatenates the files' entries in
    // order; a settings section takes each key as the last file that sets it says.
    public internal(set) var httpAllowlist: [HTTPAllowlistEntry] = []
    public internal(set) var schemeAllowlist: [SchemeAllowlistEntry] = []
    public internal(set) var contentRules: [ContentRule] = []
    public internal(set) var cookies: [CookieRule] = []
    public internal(set) var interception: [InterceptionRule] = []
    /// `navigation:`: pages and frames of every file, in order; `otherwise` and `new-windows`
    /// as the last file that sets them says (the including file after those it includes).
    public internal(set) var navigation: NavigationSection?
    /// `app-bound-domains:`: domains of every file, in order; `limit-navigations` as the last
    /// file that sets it says.
    public internal(set) var appBoundDomains: AppBoundDomainsSection?
    /// `bridges:` of every file, in order.
    public internal(set) var bridges: [BridgeDeclaration] = []
    /// `webview:`: each key as the last file that sets it says.
    public internal(set) var webView: WebViewSection?
    /// `runtime-hosts:` of every file, in order.
    public internal(set) var runtimeHosts: [RuntimeHostDeclaration] = []
    /// The content-blocker lists the documents reference (`content-rule-lists:`), read and
    /// checked by the loader, in document order.
    public internal(set) var contentRuleLists: [ExternalContentRuleList] = []

    public init(documents: [PolicyDocument]) {
        precondition(!documents.isEmpty)
        self.documents = documents
        for section in Sections.all { section.merge(documents, into: &self) }
    }

    /// The file that was asked for; its `name` and `target` speak for the whole policy.
    public var root: PolicyDocument { documents[documents.count - 1] }

    public var name: String? { root.name?.value }
    public var targetVersion: OSVersion { root.target?.ios?.value ?? .defaultTarget }
    public var distribution: Distribution { root.target?.distribution?.value ?? .appStore }
}
