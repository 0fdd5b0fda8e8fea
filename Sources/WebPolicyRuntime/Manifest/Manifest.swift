/// What `webpolicy compile` writes for the app's own code, as values: the http and scheme
/// allowlists, cookies, interception rules and the content-rule lists with where each rule
/// came from. The decision engine reads only this and the lists, whether it runs in
/// `webpolicy simulate` (built from the policy) or in an app (decoded from the manifest file),
/// so the two cannot decide differently. JSON schema: `schemas/runtime-manifest.schema.json`.
public struct Manifest: Sendable, Equatable {
    /// The newest major version this runtime reads. Members a reader does not know are
    /// ignored, so additions keep the version; a change an older reader would misread raises
    /// it: version 2 adds where the view may go (`navigation`, `appBoundDomains`), which a
    /// version-1 reader would ignore, letting the view go anywhere; version 3 adds who may
    /// call the app (`bridges`) and the web view's configuration (`webView`), which a
    /// version-2 reader would ignore, letting every frame call every handler; version 4 adds
    /// hosts named by role (`runtimeHosts`, and `"role"` in place of `"host"`), which a
    /// version-3 reader could not match; version 5 adds the web view's security settings
    /// (`webView`'s Lockdown Mode, restriction mode, HTTPS-first, data store, extensions and
    /// permissions), which a version-4 reader would ignore, leaving the camera to any page
    /// that asks. `serialized()` writes the lowest version that holds what the manifest has.
    public static let formatVersion = 5

    public var version = Manifest.formatVersion
    public var policyName: String
    public var policyDescription: String?
    public var targetIOS: String
    public var distribution: String
    public var httpAllowlist: [HTTPAllowlistEntry] = []
    public var schemeAllowlist: [SchemeAllowlistEntry] = []
    public var cookies: [Cookie] = []
    public var interception: [Interception] = []
    public var contentRuleLists: [ContentRuleList] = []
    /// `navigation:`; nil: the policy does not say where the view may go.
    public var navigation: NavigationRules?
    /// `app-bound-domains:`; nil: no `WKAppBoundDomains`.
    public var appBoundDomains: AppBoundDomains?
    /// `bridges:`: the script message handlers and who may call each.
    public var bridges: [Bridge] = []
    /// `webview:`; nil: the policy leaves the configuration as the platform has it.
    public var webView: WebViewSettings?
    /// `runtime-hosts:`: the roles the app binds to servers at run time.
    public var runtimeHosts: [RuntimeHost] = []

    public init(policyName: String, policyDescription: String? = nil, targetIOS: String, distribution: String) {
        self.policyName = policyName
        self.policyDescription = policyDescription
        self.targetIOS = targetIOS
        self.distribution = distribution
    }

    public struct HTTPAllowlistEntry: Sendable, Equatable {
        public var host: HostMatch
        public var reason: String?
        public var location: SourceLocation?

        public init(host: HostMatch, reason: String? = nil, location: SourceLocation? = nil) {
            self.host = host
            self.reason = reason
            self.location = location
        }
    }

    public struct SchemeAllowlistEntry: Sendable, Equatable {
        /// Lowercase.
        public var scheme: String
        /// nil: any host; else one of these, compared without case.
        public var hosts: [String]?
        /// nil: any path; else one of these as a prefix.
        public var paths: [String]?
        public var location: SourceLocation?

        public init(scheme: String, hosts: [String]? = nil, paths: [String]? = nil, location: SourceLocation? = nil) {
            self.scheme = scheme.lowercased()
            self.hosts = hosts
            self.paths = paths
            self.location = location
        }
    }

    public struct Cookie: Sendable, Equatable {
        public var name: String
        /// As written; `${NAME}` placeholders are filled by the app.
        public var value: String
        public var domain: String
        public var hostOnly = false
        public var path = "/"
        public var secure = false
        public var httpOnly = false
        public var sameSite: SameSite?
        public var expires: String?
        public var maxAge: Int?
        public var via = CookieDelivery.cookieStore
        public var location: SourceLocation?

        public init(name: String, value: String, domain: String) {
            self.name = name
            self.value = value
            self.domain = domain
        }
    }

    public struct Interception: Sendable, Equatable {
        public var id: String?
        /// Lowercase.
        public var scheme: String
        public var hosts: [HostMatch]?
        public var paths: [String]?
        /// Uppercase.
        public var methods: [String]?
        /// A folder of the app bundle to serve from, or…
        public var serve: String?
        /// …the name of a handler the app registers.
        public var handler: String?
        public var location: SourceLocation?

        public init(id: String? = nil, scheme: String) {
            self.id = id
            self.scheme = scheme.lowercased()
        }
    }

    /// One compiled content-blocker list of the policy.
    public struct ContentRuleList: Sendable, Equatable {
        /// For `WKContentRuleListStore`: the policy's name and the start of the list's SHA-256,
        /// so a changed list never reuses a stale compiled one.
        public var identifier: String
        /// The list's file, beside the manifest.
        public var file: String
        public var ruleCount: Int
        /// Lowercase hex SHA-256 of the file's bytes; nil in manifests written before it was
        /// recorded.
        public var sha256: String?
        /// Which policy rule each stretch of the list comes from (empty when the manifest was
        /// read without them: `decode(_:readingSources:)`).
        public var sources: [RuleSource]
        /// The engine image built from the list (`EngineImageFile`), beside it; nil in
        /// manifests written before images. A reader that does not know images ignores the
        /// member and builds the engine from the list, as before.
        public var image: String?

        public init(identifier: String, file: String, ruleCount: Int, sha256: String?, sources: [RuleSource]) {
            self.identifier = identifier
            self.file = file
            self.ruleCount = ruleCount
            self.sha256 = sha256
            self.sources = sources
        }
    }

    /// Rules `firstRule ..< firstRule + ruleCount` of a list come from one policy rule (a
    /// `hosts:` rule expands to many).
    public struct RuleSource: Sendable, Equatable {
        public var firstRule: Int
        public var ruleCount: Int
        public var id: String?
        public var location: SourceLocation?

        public init(firstRule: Int, ruleCount: Int, id: String?, location: SourceLocation?) {
            self.firstRule = firstRule
            self.ruleCount = ruleCount
            self.id = id
            self.location = location
        }
    }
}
