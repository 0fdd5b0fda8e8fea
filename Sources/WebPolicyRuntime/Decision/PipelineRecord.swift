/// The steps of the verdict pipeline (docs/semantics.md), in the order the engine runs them;
/// a script message has a step of its own.
public enum PipelineStep: UInt8, Sendable, CaseIterable {
    /// The app's navigation delegate, from `navigation:`.
    case navigation
    /// WebKit's App-Bound Domains check of a main-frame navigation.
    case appBound
    /// WebKit's content rules, list by list.
    case contentRules
    /// The scheme gate: https passes, http on the allowlist, other schemes handed to the
    /// system, served by the app or refused.
    case schemeGate
    /// The app serves an http(s) request itself.
    case interception
    /// The cookies the load carries.
    case cookies
    /// A script message to one of the app's handlers.
    case message
    /// The app binds a `runtime-hosts` role to a server.
    case binding
    /// A page asks for the camera, the microphone or motion sensors.
    case permission

    /// How `explain` names it.
    public var name: String {
        switch self {
        case .navigation: return "navigation"
        case .appBound: return "app-bound domains"
        case .contentRules: return "content rules"
        case .schemeGate: return "scheme gate"
        case .interception: return "interception"
        case .cookies: return "cookies"
        case .message: return "message"
        case .binding: return "binding"
        case .permission: return "permission"
        }
    }
}

/// Which steps ran for one request and which one decided it: what `explain`, coverage and the
/// expectation messages read instead of guessing the step from the reason. Four bytes: it is
/// kept for every request of a trace.
public struct PipelineRecord: Sendable, Equatable {
    private var ranSteps: UInt16 = 0
    /// The step whose outcome is the verdict: the one that refused, handed off, served,
    /// upgraded or admitted the request; nil when the request passed every step that ran
    /// without one of them speaking for it.
    public private(set) var decidedAt: PipelineStep?

    public init() {}

    public func ran(_ step: PipelineStep) -> Bool { ranSteps & (1 << step.rawValue) != 0 }

    /// The steps that ran, in pipeline order.
    public var steps: [PipelineStep] { PipelineStep.allCases.filter(ran) }

    mutating func run(_ step: PipelineStep) { ranSteps |= 1 << step.rawValue }

    mutating func decide(at step: PipelineStep) {
        run(step)
        decidedAt = step
    }

    /// Whether the navigation's own steps ended it: the delegate cancelled it or WebKit
    /// refused it, so nothing loads and no later step runs.
    /// (An admitted document the later steps let through is also decided at `.navigation`:
    /// its entry is its reason, but the load went on.)
    public var endedAtNavigation: Bool { (decidedAt == .navigation || decidedAt == .appBound) && !ran(.contentRules) }
}
