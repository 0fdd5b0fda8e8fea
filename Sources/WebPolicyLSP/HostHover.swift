import WebPolicyKit
import WebPolicyRuntime

/// What the editor shows over a host pattern: the hosts it names, and every other entry of the
/// policy (its includes too) that names some of the same hosts — the allowlist entry that lets
/// a page's plain http through, the bridge that the page's frames may call, the cookie set on
/// it. Read from the policy as the last lint loaded it, so a pattern in a flow list
/// (`origins: [a.example, b.example]`) is found by its own place, not by the line's shape.
enum HostHover {
    static func hover(at position: SourcePosition, in file: SourceFile, policy: Policy) -> String? {
        let patterns = policy.hostPatterns
        guard let here = patterns.first(where: { $0.text.location.path == file.path && Navigation.contains($0.text.location.range, position) }) else { return nil }
        var lines = ["**host** `\(here.text.value)` (\(here.place)): \(names(here.scope))."]
        let others = patterns.filter { $0.text.location != here.text.location && $0.scope.intersects(here.scope) }
        if others.isEmpty {
            lines.append("No other entry of the policy names these hosts.")
        } else {
            lines.append("Also named by:")
            for other in others {
                let place = other.text.location.path == file.path ? "line \(other.text.location.start.line)" : "\(other.text.location.path):\(other.text.location.start.line)"
                lines.append("- \(other.place), \(place): `\(other.text.value)` — \(names(other.scope))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The hosts a scope names, in words.
    static func names(_ scope: HostScope) -> String {
        if let role = scope.role {
            let bound = "the origin the app binds the role '\(role)' to at run time"
            switch scope.kind {
            case .exact: return bound
            case .subdomains: return "the subdomains of \(bound)"
            case .domainAndSubdomains: return "\(bound) and its subdomains"
            }
        }
        switch scope.kind {
        case .exact: return "\(scope.host) only"
        case .subdomains: return "the subdomains of \(scope.host), not \(scope.host) itself"
        case .domainAndSubdomains: return "\(scope.host) and its subdomains"
        }
    }
}
