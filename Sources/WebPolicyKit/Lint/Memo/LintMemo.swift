import URLFilter
import WebPolicyRuntime

/// What one lint of a policy hands the next lint of the same buffer: an editor's server lints
/// the whole text after each keystroke, and a block list's 100,000 rules are, but for one,
/// what they were. It changes how fast a lint is, never what it says (`LintBetweenEditsTests`).
/// The command line lints once and has none.
///
/// Each table is as large as one lint needs, however long the editing (`Memo`).
public final class LintMemo: @unchecked Sendable {
    /// WebKit's parse of each url regex, by its text: a rule decoded anew (its line moved)
    /// still finds its regex here.
    let parses = Memo<URLFilterParseKey, URLFilterParseResult>()
    private var tables: [String: AnyObject] = [:]

    public init() {}

    /// The table called `name`, made on first use; a rule or a fact keeps its own.
    func table<Key, Value>(_ name: String, of _: Key.Type = Key.self, _: Value.Type = Value.self) -> Memo<Key, Value> {
        if let table = tables[name] as? Memo<Key, Value> { return table }
        let table = Memo<Key, Value>()
        tables[name] = table
        return table
    }

    /// Values held in every table, for tests of its bound.
    var count: Int {
        parses.count + tables.values.reduce(0) { $0 + (($1 as? any CountedMemo)?.count ?? 0) }
    }
}

/// A regex as WebKit's parser takes it.
struct URLFilterParseKey: Hashable, Sendable {
    var pattern: String
    var caseSensitive: Bool
}

protocol CountedMemo: AnyObject {
    var count: Int { get }
}

extension Memo: CountedMemo {}
