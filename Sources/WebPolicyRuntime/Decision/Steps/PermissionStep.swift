/// The step that decides a permission request (docs/semantics.md, "Permissions"): whether
/// WebKit asks the user (`.prompt`: the verdict `allow`) or refuses without asking (`.deny`:
/// `block`). A request for several capabilities is asked only when each of them may be: WebKit
/// takes one answer for `cameraAndMicrophone`. A capability the policy does not name keeps
/// WebKit's own answer, a prompt.
struct PermissionStep: Sendable {
    let rules: PermissionRules

    struct Outcome {
        var asked: Bool
        var why: Why
        var location: SourceLocation?
    }

    func decide(_ request: PermissionRequest, bindings: HostBindings) -> Outcome {
        let url = request.frameURL
        let origin = url.scheme + "://" + (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
        var asked: (kind: PermissionKind, entry: PermissionRules.Entry?)?
        for kind in request.kinds {
            guard let entry = rules[kind] else {
                if asked == nil { asked = (kind, nil) }
                continue
            }
            switch entry.rule {
            case .deny:
                return Outcome(asked: false, why: .permissionDenied(kind.rawValue, at: entry.location), location: entry.location)
            case .ask:
                if asked?.entry == nil { asked = (kind, entry) }
            case .origins(let scopes):
                // A secure context only: WebKit offers getUserMedia and the sensors' request
                // to https pages (and a role's bound origin, whatever its scheme).
                let admitted = scopes.contains { scope in
                    scope.role != nil ? scope.matches(url, in: bindings) : url.scheme == "https" && scope.matches(url, in: bindings)
                }
                if !admitted, url.scheme != "https", scopes.contains(where: { $0.role == nil && $0.matches(url, in: bindings) }) {
                    return Outcome(asked: false, why: .permissionInsecure(kind.rawValue, origin: origin, at: entry.location), location: entry.location)
                }
                guard admitted else {
                    let unbound = scopes.compactMap(\.role).filter { bindings[$0] == nil }
                    return Outcome(asked: false, why: .permissionOriginRefused(kind.rawValue, origin: origin, at: entry.location, unbound: unbound), location: entry.location)
                }
                if asked?.entry == nil { asked = (kind, entry) }
            }
        }
        guard let asked else { return Outcome(asked: true, why: .permissionNotSaid(request.written), location: nil) }
        guard let entry = asked.entry else { return Outcome(asked: true, why: .permissionNotSaid(asked.kind.rawValue), location: nil) }
        return Outcome(asked: true, why: .permissionAsked(request.written, origin: origin, at: entry.location), location: entry.location)
    }
}
