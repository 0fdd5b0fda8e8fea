/// A policy with its includes merged: what lint rules, the compiler and the simulator see.
///
/// `documents` lists every file once, included files before their includer and in `include:`
/// order (depth first), so each section is the concatenation of the files' sections in that
/// order — content-rule order, which `ignore-previous-rules` depends on, is predictable.
public struct Policy: Sendable {
    public var documents: [PolicyDocument]

    public init(documents: [PolicyDocument]) {
        precondition(!documents.isEmpty)
        self.documents = documents
    }

    /// The file that was asked for; its `name` and `target` speak for the whole policy.
    public var root: PolicyDocument { documents[documents.count - 1] }

    public var name: String? { root.name?.value }
    public var targetVersion: OSVersion { root.target?.ios?.value ?? .defaultTarget }
    public var distribution: Distribution { root.target?.distribution?.value ?? .appStore }

    public var httpAllowlist: [HTTPAllowlistEntry] { documents.flatMap(\.httpAllowlist) }
    public var schemeAllowlist: [SchemeAllowlistEntry] { documents.flatMap(\.schemeAllowlist) }
    public var contentRules: [ContentRule] { documents.flatMap(\.contentRules) }
    public var cookies: [CookieRule] { documents.flatMap(\.cookies) }
    public var interception: [InterceptionRule] { documents.flatMap(\.interception) }
}
