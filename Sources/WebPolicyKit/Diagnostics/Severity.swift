import WebPolicyRuntime

/// How much a finding matters. `error` fails `webpolicy lint`; `warning` fails it with `--strict`.
public enum Severity: String, Sendable, CaseIterable, Comparable, Codable {
    case error
    case warning
    case info

    /// Errors sort first in listings with equal positions.
    var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
