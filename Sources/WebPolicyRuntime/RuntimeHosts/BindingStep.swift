/// The step that decides a binding (docs/semantics.md, "Hosts named by role"): whether the
/// policy lets a role stand for the server the app names. A binding names a declared role, an
/// origin over one of the role's schemes, and — for plain http under `http: local-network` —
/// a host on the local network (`LocalNetwork`), as ATS's `NSAllowsLocalNetworking` would
/// let the app reach it.
struct BindingStep: Sendable {
    let roles: [RuntimeHost]

    enum Outcome {
        case bound(HostBinding, RuntimeHost)
        case refused(problem: String, RuntimeHost?)
    }

    func decide(_ request: BindRequest) -> Outcome {
        guard let role = roles.first(where: { $0.name == request.role }) else {
            let known = roles.isEmpty ? "the policy has no runtime-hosts" : "the roles are " + roles.map(\.reference).joined(separator: ", ")
            return .refused(problem: "no role is named '\(request.role)' (\(known))", nil)
        }
        let url = request.url
        guard let host = url.host, !host.isEmpty, url.scheme == "https" || url.scheme == "http" else {
            return .refused(problem: "a role is bound to an http or https origin, and this is \(url.scheme):", role)
        }
        guard role.schemes.contains(url.scheme) else {
            return .refused(problem: "\(role.reference) may use \(role.schemes.joined(separator: ", ")), not \(url.scheme)", role)
        }
        let binding = HostBinding(role: role.name, scheme: url.scheme, host: host, port: url.port)
        if url.scheme == "http", role.http == .localNetwork, !binding.isLocalNetwork {
            return .refused(problem: "plain http to \(host), which is not on the local network, and \(role.reference) allows http on the local network only (http: local-network)", role)
        }
        return .bound(binding, role)
    }
}
