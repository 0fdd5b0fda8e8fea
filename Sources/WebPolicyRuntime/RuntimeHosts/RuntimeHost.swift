/// `runtime-hosts:` — a server the policy names by role (`${server}`) because the app learns
/// its address only at run time: the Home Assistant or Nextcloud instance the user signed in
/// to, a Mastodon instance, a company's own deployment. The app binds the role to the origin
/// it uses (`RuntimePolicy.bind`); until then every entry written with the role matches no
/// host (docs/semantics.md, "Hosts named by role").
public struct RuntimeHost: Sendable, Equatable {
    /// The role's name, as `${name}` refers to it.
    public var name: String
    public var description: String?
    /// The schemes a binding may use, lowercase (`https`, `http`; `wss` and `ws` follow them).
    public var schemes: [String]
    /// Where plain http may go, when `schemes` has it.
    public var http: PlainHTTP
    public var location: SourceLocation?

    public init(name: String, description: String? = nil, schemes: [String] = ["https"], http: PlainHTTP = .localNetwork, location: SourceLocation? = nil) {
        self.name = name
        self.description = description
        self.schemes = schemes.map { $0.lowercased() }
        self.http = http
        self.location = location
    }

    /// `http:` — which bound hosts plain http may reach.
    public enum PlainHTTP: String, Sendable, CaseIterable {
        /// Only a host on the local network (`LocalNetwork`), as ATS's
        /// `NSAllowsLocalNetworking` lets through.
        case localNetwork = "local-network"
        /// Any host the user names: the policy gives up transport security for the role.
        case anywhere
    }

    /// Whether a binding may use plain http at all.
    public var allowsPlainHTTP: Bool { schemes.contains("http") }

    /// `${server}`, as policies and reasons write the role.
    public var reference: String { "${\(name)}" }
}
