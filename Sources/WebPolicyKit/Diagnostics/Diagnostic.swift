import WebPolicyRuntime

/// The one finding type of webpolicy: every loader problem and every lint rule produces these,
/// and every reporter consumes them (after `Diagnostic.normalized`).
public struct Diagnostic: Hashable, Sendable {
    /// The kebab-case id of the rule or loader check, e.g. `url-filter-disjunction`.
    public var ruleID: String
    public var severity: Severity
    /// One lower-case sentence: the fact, quoting the offending value, then the expectation.
    public var message: String
    public var location: SourceLocation
    /// Related places and facts, e.g. "first defined here".
    public var notes: [Note]
    /// How to fix it, when there is something better to say than the message.
    public var hint: String?
    /// The edit that fixes it, when the fix is certain (`webpolicy lint --fix`).
    public var fix: Fix?

    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation?

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    public init(
        ruleID: String,
        severity: Severity,
        message: String,
        location: SourceLocation,
        notes: [Note] = [],
        hint: String? = nil,
        fix: Fix? = nil
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.notes = notes
        self.hint = hint
        self.fix = fix
    }
}

extension Diagnostic {
    /// Sorted by file, position, severity, rule and message, with exact duplicates removed (an
    /// included file linted on its own and through its includer reports the same problem twice).
    /// Every reporter sees diagnostics only in this order, so output is byte-stable.
    public static func normalized(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        // Sorts positions, not the diagnostics: a diagnostic is a large value (strings, notes,
        // fixes), and a sort moves what it sorts many times over. Ties keep their order.
        let order = diagnostics.indices.sorted { left, right in
            let lhs = diagnostics[left], rhs = diagnostics[right]
            if lhs.location.path != rhs.location.path { return lhs.location.path < rhs.location.path }
            if lhs.location.range.start != rhs.location.range.start { return lhs.location.range.start < rhs.location.range.start }
            if lhs.location.range.end != rhs.location.range.end { return lhs.location.range.end < rhs.location.range.end }
            if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
            if lhs.ruleID != rhs.ruleID { return lhs.ruleID < rhs.ruleID }
            if lhs.message != rhs.message { return lhs.message < rhs.message }
            let (leftHint, rightHint) = (lhs.hint ?? "", rhs.hint ?? "")
            if leftHint != rightHint { return leftHint < rightHint }
            return left < right
        }
        // Exact duplicates share the sort key, so they sit in one run: compare within it
        // instead of hashing every diagnostic (notes, fixes and all).
        var result: [Diagnostic] = []
        result.reserveCapacity(diagnostics.count)
        var runStart = 0
        for index in order {
            let diagnostic = diagnostics[index]
            if let last = result.last, !last.sortsTogether(with: diagnostic) { runStart = result.count }
            if !result[runStart...].contains(diagnostic) { result.append(diagnostic) }
        }
        return result
    }

    private func sortsTogether(with other: Diagnostic) -> Bool {
        location == other.location && severity == other.severity && ruleID == other.ruleID
            && message == other.message && hint == other.hint
    }
}

/// A check that is not a lint rule (loader, compile, import and suppression checks): an id
/// for diagnostics and a summary for docs/rules.md.
public protocol DocumentedCheck: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    var summary: String { get }
}

extension DocumentedCheck {
    public var id: String { rawValue }
}
