import Foundation
import WebPolicyRuntime

/// A property list value with where it was written: an XML plist's element, or — for a binary
/// plist, which has no lines — the file's start, with the key path said in the finding.
public indirect enum PlistNode: Sendable {
    case dictionary([(key: String, keyLocation: SourceLocation, value: PlistNode)], SourceLocation)
    case array([PlistNode], SourceLocation)
    case string(String, SourceLocation)
    case bool(Bool, SourceLocation)
    case number(String, SourceLocation)
    /// `<date>`, `<data>`: kept only so a key's presence counts.
    case other(SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .dictionary(_, let location), .array(_, let location), .string(_, let location), .bool(_, let location),
             .number(_, let location), .other(let location):
            return location
        }
    }

    public subscript(key: String) -> PlistNode? {
        guard case .dictionary(let entries, _) = self else { return nil }
        return entries.last { $0.key == key }?.value
    }

    public var entries: [(key: String, keyLocation: SourceLocation, value: PlistNode)] {
        if case .dictionary(let entries, _) = self { return entries }
        return []
    }

    public var items: [PlistNode] {
        if case .array(let items, _) = self { return items }
        return []
    }

    public var string: String? {
        if case .string(let value, _) = self { return value }
        return nil
    }

    /// `<true/>`, and the strings `YES` / `true` that Xcode's build settings write.
    public var bool: Bool? {
        switch self {
        case .bool(let value, _): return value
        case .string(let value, _):
            switch value.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: return nil
            }
        case .number(let value, _): return value == "1" ? true : value == "0" ? false : nil
        default: return nil
        }
    }

    /// The value of a Foundation property list, every node at `location`.
    static func from(_ object: Any, at location: SourceLocation) -> PlistNode {
        switch object {
        case let dictionary as [String: Any]:
            return .dictionary(dictionary.keys.sorted().map { key in (key, location, from(dictionary[key]!, at: location)) }, location)
        case let array as [Any]:
            return .array(array.map { from($0, at: location) }, location)
        case let string as String:
            return .string(string, location)
        case let number as NSNumber:
            // A boolean NSNumber is CFBoolean on Apple platforms; on Linux Foundation bridges
            // `true` to Bool directly, so ask for Bool first.
            if let bool = object as? Bool, type(of: object) == Bool.self { return .bool(bool, location) }
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue, location) }
            return .number(number.stringValue, location)
        default:
            return .other(location)
        }
    }
}
