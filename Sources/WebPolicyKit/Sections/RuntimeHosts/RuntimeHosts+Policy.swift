import WebPolicyRuntime

extension Policy {
    /// The role `${name}` refers to: the first one of that name (a second is `role-duplicate`).
    public func runtimeHost(named name: String) -> RuntimeHostDeclaration? {
        runtimeHosts.first { $0.name.value == name }
    }

    /// The schemes an entry admits: as written; else https, or for an entry naming a role, the
    /// role's — a role entry means the bound origin, over the scheme the binding has.
    func schemeNames(of scope: HostScope?, written: Located<[LocatedString]>?) -> [String] {
        if let written { return written.value.map { $0.value.lowercased() } }
        guard let role = scope?.role, let host = runtimeHost(named: role) else { return ["https"] }
        return host.schemeNames
    }

    /// Whether plain http to the entry's hosts is the local network's alone: every host is a
    /// role whose plain http is for hosts on the local network.
    func isLocalNetworkOnly(_ scopes: [HostScope?]) -> Bool {
        !scopes.isEmpty && scopes.allSatisfy { scope in
            guard let role = scope?.role, let host = runtimeHost(named: role) else { return false }
            return host.httpValue == .localNetwork
        }
    }
}
