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
    }

    /// The file that was asked for; its `name` and `target` speak for the whole policy.
    public var root: PolicyDocument { documents[documents.count - 1] }

    public var name: String? { root.name?.value }
    public var targetVersion: OSVersion { root.target?.ios?.value ?? .defaultTarget }
    public var distribution: Distribution { root.target?.distribution?.value ?? .appStore }
}
