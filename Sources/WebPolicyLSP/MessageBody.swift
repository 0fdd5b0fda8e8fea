import Foundation
import WebPolicyRuntime

/// A message's JSON body as the dictionaries the server reads. An editor sends the whole text
/// of a policy on each change — 10 MB for an imported block list — and Foundation's
/// `JSONSerialization` took half a second over such a body; webpolicy's own JSON reader (the
/// one that reads content-blocker lists) takes a fraction of that.
enum MessageBody {
    /// The body's top-level object, or nil when it is not a JSON object. Strings that are not
    /// UTF-8 (a buffer holding stray bytes) are read as their text would be, each bad byte a
    /// U+FFFD, rather than refused.
    static func object(_ body: [UInt8]) -> [String: Any]? {
        guard case .success(let node) = JSONDocument.parse(bytes: body) else { return nil }
        return foundation(node) as? [String: Any]
    }

    /// The value as `JSONSerialization` would give it: numbers that are whole as `Int` (ids,
    /// versions, lines and characters), others as `Double`.
    private static func foundation(_ node: JSONNode) -> Any {
        switch node.value {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let value):
            if value.rounded(.towardZero) == value, abs(value) < 9.0e15 { return Int(value) }
            return value
        case .string(let value): return value
        case .array(let items): return items.map(foundation)
        case .object(let members):
            var object: [String: Any] = [:]
            // With duplicate keys, the last one, as Foundation keeps it.
            for member in members { object[member.key] = foundation(member.value) }
            return object
        }
    }
}
