/// What a role is bound to: the origin the app uses for it (`RuntimePolicy.bind`, a trace's
/// `bind` line, `simulate --bind`).
public struct HostBinding: Sendable, Equatable {
    public var role: String
    /// Lowercase: `https` or `http`.
    public var scheme: String
    /// As WebKit canonicalises it: lowercase, an IPv6 address in brackets.
    public var host: String
    /// nil: the scheme's default port.
    public var port: Int?
    /// The host is on the local network (`LocalNetwork.contains`).
    public var isLocalNetwork: Bool

    public init(role: String, scheme: String, host: String, port: Int? = nil) {
        self.role = role
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
        isLocalNetwork = LocalNetwork.contains(self.host)
    }

    /// `https://ha.example.com`, `http://homeassistant.local:8123`.
    public var origin: String { scheme + "://" + host + (port.map { ":\($0)" } ?? "") }
}

/// The roles bound at one moment: what a decision reads. A value: a decision takes the
/// bindings of its moment whole, so a rebind on another thread never shows it half of one.
public struct HostBindings: Sendable, Equatable {
    private var bound: [String: HostBinding] = [:]

    public init(_ bindings: [HostBinding] = []) {
        for binding in bindings { bound[binding.role] = binding }
    }

    public subscript(role: String) -> HostBinding? {
        get { bound[role] }
        set { bound[role] = newValue }
    }

    public var isEmpty: Bool { bound.isEmpty }
    /// The binding `test` accepts, the first by role name when several do (deterministic
    /// reasons), without sorting every binding as `all` does: a lookup on a load's path.
    public func first(where test: (HostBinding) -> Bool) -> HostBinding? {
        var found: HostBinding?
        for binding in bound.values where test(binding) && (found.map { binding.role < $0.role } ?? true) { found = binding }
        return found
    }
    /// Every binding, by role name.
    public var all: [HostBinding] { bound.keys.sorted().compactMap { bound[$0] } }
}
