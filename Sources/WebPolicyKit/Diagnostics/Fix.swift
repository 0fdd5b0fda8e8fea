import WebPolicyRuntime

/// A change to the policy's text that resolves a finding, as a list of replacements in the
/// finding's file. Text edits, not a rewritten YAML tree: comments, quoting and layout stay as
/// the team wrote them.
public struct Fix: Hashable, Sendable {
    /// What the fix does, imperative: "lowercase the host".
    public var description: String
    public var edits: [TextEdit]
    /// The fix is certain but changes what the policy means somewhere (the simulator's reading
    /// of a wildcard, say): `--fix` leaves it, `--fix --unsafe-fixes` applies it (Ruff's split).
    public var changesMeaning: Bool

    /// The command that applies it, for reporters to show.
    public var command: String { changesMeaning ? "webpolicy lint --fix --unsafe-fixes" : "webpolicy lint --fix" }

    public init(_ description: String, edits: [TextEdit], changesMeaning: Bool = false) {
        self.description = description
        self.edits = edits
        self.changesMeaning = changesMeaning
    }
}

/// Replace the text in `range` (an empty range inserts) with `replacement`.
public struct TextEdit: Hashable, Sendable {
    public var range: SourceRange
    public var replacement: String

    public init(range: SourceRange, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}
