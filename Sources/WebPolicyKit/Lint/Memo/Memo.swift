import WebPolicyRuntime

/// Values one lint worked out that the next lint of the same buffer may take back: an editor
/// lints the whole text after every keystroke, and nearly all of it is as it was.
///
/// As large as one lint's keys however long the editing: when stale entries outnumber this
/// lint's, only this lint's are kept. Used by one lint at a time.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private var known: [Key: Value] = [:]

    /// How many values the memo holds.
    var count: Int { known.count }

    /// What to do with a value the memo holds for a key: use it, as it is or changed (the
    /// change is then held) — or, nil, work the value out afresh.
    typealias Reuse = @Sendable (_ index: Int, _ known: Value) -> (value: Value, changed: Bool)?

    /// Each key's value, on every core: the memo's (through `reuse`, when given), else
    /// `compute(index)`'s now. A nil key is never looked up; a value computed with `keep`
    /// false is used once and not remembered.
    func values(for keys: [Key?], reusing reuse: Reuse? = nil, computing compute: @Sendable (Int) -> (value: Value, keep: Bool)) -> [Value] {
        let table = known
        let found = Array(keys.indices).parallelMap { index -> (value: Value, outcome: Outcome) in
            if let key = keys[index], let value = table[key] {
                guard let reuse else { return (value, .known) }
                if let reused = reuse(index, value) { return (reused.value, reused.changed ? .new : .known) }
            }
            let computed = compute(index)
            return (computed.value, computed.keep ? .new : .passing)
        }
        let outcomes = found.map(\.outcome)
        let values = found.map(\.value)
        var kept = 0
        for index in keys.indices where outcomes[index] != .passing {
            guard let key = keys[index] else { continue }
            kept += 1
            if outcomes[index] == .new { known[key] = values[index] }
        }
        if known.count > 2 * kept + 1_024 {
            var fresh: [Key: Value] = [:]
            fresh.reserveCapacity(kept)
            for index in keys.indices where outcomes[index] != .passing { if let key = keys[index] { fresh[key] = values[index] } }
            known = fresh
        }
        return values
    }

    private enum Outcome: UInt8 {
        /// The memo's value, as it was.
        case known
        /// Worked out now, or the memo's changed: held under this key.
        case new
        /// Worked out now and not to be held.
        case passing
    }
}
