/// Step 3 (docs/semantics.md), and the scheme gate's first question for an app's own scheme:
/// the first `interception:` rule that serves a URL with a method. The app answers those
/// requests itself (`WKURLSchemeHandler`).
struct InterceptionStep: Sendable {
    let rules: [Manifest.Interception]

    /// `method` nil: GET. `bindings`: the roles bound now, for hosts that name one.
    func rule(for url: CanonicalURL, method: String?, bindings: HostBindings) -> Manifest.Interception? {
        rules.first { rule in
            guard rule.scheme == url.scheme else { return false }
            if let hosts = rule.hosts, !hosts.contains(where: { $0.matches(url.host ?? "", in: bindings) }) { return false }
            if let paths = rule.paths, !paths.contains(where: { url.path.hasPrefix($0) }) { return false }
            if let methods = rule.methods, !methods.contains(method ?? "GET") { return false }
            return true
        }
    }

    static func origin(of rule: Manifest.Interception) -> RuleOrigin {
        RuleOrigin(index: -1, id: rule.id, location: rule.location)
    }
}

extension Decision {
    /// Step 3's outcome on the decision: the rule that serves it, if one does; true when it
    /// ends the pipeline.
    mutating func take(interception handler: Manifest.Interception?) -> Bool {
        guard let handler else { return false }
        (verdict, decidedBy, interception) = (.intercept, InterceptionStep.origin(of: handler), handler)
        why = .intercepted(InterceptionStep.origin(of: handler))
        record.decide(at: .interception)
        return true
    }
}
