import WebPolicyRuntime

/// One role of `runtime-hosts:` as a file writes it: `server:` and what a binding of it may use.
public struct RuntimeHostDeclaration: Sendable {
    public var location: SourceLocation
    /// The key: `${name}` refers to it.
    public var name: LocatedString
    public var description: LocatedString?
    /// https unless this names others.
    public var schemes: Located<[LocatedString]>?
    /// `local-network` unless it says `anywhere`.
    public var http: Located<RuntimeHost.PlainHTTP>?

    public init(location: SourceLocation, name: LocatedString) {
        self.location = location
        self.name = name
    }

    /// The schemes a binding may use, lowercase: https unless it says.
    public var schemeNames: [String] { schemes?.value.map { $0.value.lowercased() } ?? ["https"] }
    public var httpValue: RuntimeHost.PlainHTTP { http?.value ?? .localNetwork }
    /// `${server}`.
    public var reference: String { "${\(name.value)}" }

    /// The role as the runtime binds it.
    public var runtimeHost: RuntimeHost {
        RuntimeHost(name: name.value, description: description?.value, schemes: schemeNames, http: httpValue, location: location)
    }
}
