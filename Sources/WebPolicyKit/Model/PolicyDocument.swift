import WebPolicyRuntime

/// What one policy file says, section by section, every value with its location. Built by
/// `PolicyDecoder`; `Policy` merges a document with the files it includes.
public struct PolicyDocument: Sendable {
    public var file: SourceFile
    public var version: Located<Int>?
    public var name: LocatedString?
    public var description: LocatedString?
    public var target: Target?
    public var includes: [LocatedString] = []
    public var httpAllowlist: [HTTPAllowlistEntry] = []
    public var schemeAllowlist: [SchemeAllowlistEntry] = []
    public var contentRules: [ContentRule] = []
    public var contentRuleLists: [ContentRuleListReference] = []
    public var cookies: [CookieRule] = []
    public var interception: [InterceptionRule] = []
    public var navigation: NavigationSection?
    public var appBoundDomains: AppBoundDomainsSection?
    public var bridges: [BridgeDeclaration] = []
    public var webView: WebViewSection?
    public var runtimeHosts: [RuntimeHostDeclaration] = []

    public init(file: SourceFile) {
        self.file = file
    }
}

/// `target:` — what the policy ships to.
public struct Target: Sendable {
    public var location: SourceLocation
    public var ios: Located<OSVersion>?
    public var distribution: Located<Distribution>?
}
