import WebPolicyKit
import WebPolicyRuntime

/// A run-time test a setting sits behind (`if !Bundle.main.isProduction { … }`), or a setting's
/// value that is such a test (`isInspectable = Settings.isDebug`), as the reader parsed it.
/// The audit evaluates it for an App Store release build: `#if DEBUG` is already resolved, and
/// a few facts of such builds are known — so "true in App Store builds" is said with its why,
/// and what the audit cannot evaluate is said as such, never guessed.
public struct RuntimeCondition: Sendable, Hashable {
    /// As written, for messages: `!Bundle.main.isProduction`.
    public var text: String
    public var term: ConditionTerm

    public init(text: String, term: ConditionTerm) {
        self.text = text
        self.term = term
    }
}

public indirect enum ConditionTerm: Sendable, Hashable {
    /// Known where it was read: a literal, `#available` (true on the devices that run it).
    case constant(Bool)
    /// A Boolean property or constant of the app's, by its last name (`isProduction`), looked
    /// up across the module in the declarations the readers recorded.
    case reference(String)
    /// `appStoreReceiptURL` compared with `sandboxReceipt`: true in TestFlight and sandbox
    /// builds, false in App Store builds, whose receipt file is named `receipt`.
    case sandboxReceipt
    /// `ProcessInfo.processInfo.environment["X"]` is set: an Xcode scheme's variable, never set
    /// in an App Store build.
    case environmentVariable(String)
    /// `_isDebugAssertConfiguration()`: false in an optimised (release) build.
    case debugAssertConfiguration
    case not(ConditionTerm)
    case and([ConditionTerm])
    case or([ConditionTerm])
    /// Anything else, as written.
    case unknown(String)
}

extension ConditionTerm {
    /// As a message writes it.
    public var text: String {
        switch self {
        case .constant(let value): return value ? "true" : "false"
        case .reference(let name): return name
        case .sandboxReceipt: return "a sandbox receipt"
        case .environmentVariable(let name): return "$\(name)"
        case .debugAssertConfiguration: return "_isDebugAssertConfiguration()"
        case .not(let inner): return "!" + inner.text
        case .and(let terms): return terms.map(\.text).joined(separator: " && ")
        case .or(let terms): return terms.map(\.text).joined(separator: " || ")
        case .unknown(let text): return text
        }
    }
}

/// A Boolean the app declares once and tests elsewhere (`var isProduction: Bool { … }`), with
/// its value in a release build (the `#if DEBUG` branch resolved).
public struct FlagDeclaration: Sendable, Hashable {
    public var name: String
    public var value: RuntimeCondition
    public var location: SourceLocation

    public init(name: String, value: RuntimeCondition, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// What a condition is in an App Store release build, and why.
public struct ConditionValue: Sendable, Equatable {
    /// nil: the audit cannot tell.
    public var value: Bool?
    /// The facts the answer rests on, in the order they were used.
    public var reasons: [Diagnostic.Note]
    /// Tests of run-time data beside the build's (`url.isZIMURL && !isProduction`): the value
    /// holds in App Store builds whenever these do.
    public var undecided: [String]

    public init(_ value: Bool?, reasons: [Diagnostic.Note] = [], undecided: [String] = []) {
        self.value = value
        self.reasons = reasons
        self.undecided = undecided
    }
}

/// The module's flags by name; a name declared twice with different values is not resolved.
public struct FlagTable: Sendable {
    private var flags: [String: FlagDeclaration?] = [:]

    public init(_ declarations: [FlagDeclaration]) {
        for declaration in declarations {
            if let existing = flags[declaration.name] {
                if existing?.value != declaration.value { flags[declaration.name] = .some(nil) }
            } else {
                flags[declaration.name] = declaration
            }
        }
    }

    /// The condition's value in an App Store release build.
    public func evaluate(_ condition: RuntimeCondition) -> ConditionValue {
        var visiting: Set<String> = []
        return evaluate(condition.term, visiting: &visiting)
    }

    private func evaluate(_ term: ConditionTerm, visiting: inout Set<String>) -> ConditionValue {
        switch term {
        case .constant(let value):
            return ConditionValue(value)
        case .reference(let name):
            guard let found = flags[name], let declaration = found, visiting.insert(name).inserted else { return ConditionValue(nil) }
            var inner = evaluate(declaration.value.term, visiting: &visiting)
            visiting.remove(name)
            // A Boolean of run-time data (`isZIMURL`) is no fact of the build: said as itself.
            guard inner.value != nil else { return ConditionValue(nil) }
            inner.reasons.insert(Diagnostic.Note("in a release build \(name) is \(declaration.value.text)", at: declaration.location), at: 0)
            return inner
        case .sandboxReceipt:
            return ConditionValue(false, reasons: [Diagnostic.Note("an App Store build's receipt is named 'receipt'; only TestFlight and sandbox builds have a 'sandboxReceipt' (Apple, appStoreReceiptURL)")])
        case .environmentVariable(let name):
            return ConditionValue(false, reasons: [Diagnostic.Note("the environment variable \(name) is set by an Xcode scheme, never in an App Store build")])
        case .debugAssertConfiguration:
            return ConditionValue(false, reasons: [Diagnostic.Note("_isDebugAssertConfiguration() is false in an optimised build")])
        case .not(let inner):
            let value = evaluate(inner, visiting: &visiting)
            guard value.undecided.isEmpty else { return ConditionValue(nil) }
            return ConditionValue(value.value.map { !$0 }, reasons: value.reasons)
        case .and(let terms):
            return combine(terms, absorbing: false, visiting: &visiting)
        case .or(let terms):
            return combine(terms, absorbing: true, visiting: &visiting)
        case .unknown:
            return ConditionValue(nil)
        }
    }

    /// `and` is decided by a false term, `or` by a true one; otherwise every term must be known
    /// — but an `and` whose build facts hold, beside tests of run-time data, holds whenever
    /// those do, and says which.
    private func combine(_ terms: [ConditionTerm], absorbing: Bool, visiting: inout Set<String>) -> ConditionValue {
        var reasons: [Diagnostic.Note] = []
        var unknown: [String] = []
        var undecided: [String] = []
        for term in terms {
            let value = evaluate(term, visiting: &visiting)
            if value.value == absorbing, value.undecided.isEmpty { return ConditionValue(absorbing, reasons: value.reasons) }
            if value.value == nil { unknown.append(term.text) }
            undecided += value.undecided
            reasons += value.reasons
        }
        if unknown.isEmpty { return ConditionValue(!absorbing, reasons: reasons, undecided: undecided) }
        if !absorbing, !reasons.isEmpty { return ConditionValue(true, reasons: reasons, undecided: undecided + unknown) }
        return ConditionValue(nil)
    }
}
