import WebPolicyRuntime

/// Writes a `JSONValue` tree as block-style YAML, the way people write policies: mappings in
/// blocks, short scalar lists in flow style, strings plain where that is unambiguous, single-
/// quoted where backslashes should stay readable (url-filters), double-quoted with escapes only
/// for control characters. Key order is kept, so the output is byte-stable.
public enum YAMLWriter {
    /// Flow lists longer than this are written one item per line.
    static let flowWidth = 100

    public static func render(_ value: JSONValue) -> String {
        var output = ""
        switch value {
        case .object(let members):
            writeMembers(members, indent: 0, into: &output)
        case .array(let items):
            writeItems(items, indent: 0, into: &output)
        default:
            output = scalar(value) + "\n"
        }
        return output
    }

    private static func writeMembers(_ members: [(String, JSONValue)], indent: Int, into output: inout String, firstLinePrefix: String? = nil) {
        for (index, (key, value)) in members.enumerated() {
            let prefix = index == 0 ? (firstLinePrefix ?? String(repeating: " ", count: indent)) : String(repeating: " ", count: indent)
            output += prefix + quoted(key) + ":"
            writeValue(value, indent: indent, into: &output)
        }
    }

    /// Writes what follows `key:` — inline for scalars and short lists, else on the next lines.
    private static func writeValue(_ value: JSONValue, indent: Int, into output: inout String) {
        switch value {
        case .object(let members) where !members.isEmpty:
            output += "\n"
            writeMembers(members, indent: indent + 2, into: &output)
        case .array(let items) where !items.isEmpty:
            if let flow = flowList(items), indent + flow.count <= flowWidth {
                output += " " + flow + "\n"
            } else {
                output += "\n"
                writeItems(items, indent: indent + 2, into: &output)
            }
        default:
            output += " " + scalar(value) + "\n"
        }
    }

    private static func writeItems(_ items: [JSONValue], indent: Int, into output: inout String) {
        let dash = String(repeating: " ", count: indent) + "- "
        for item in items {
            switch item {
            case .object(let members) where !members.isEmpty:
                writeMembers(members, indent: indent + 2, into: &output, firstLinePrefix: dash)
            case .array(let inner) where !inner.isEmpty:
                output += dash.dropLast() + "\n"
                writeItems(inner, indent: indent + 2, into: &output)
            default:
                output += dash + scalar(item) + "\n"
            }
        }
    }

    /// `[a, b]` when every item is a scalar.
    private static func flowList(_ items: [JSONValue]) -> String? {
        var parts: [String] = []
        for item in items {
            switch item {
            case .array, .object: return nil
            default: parts.append(scalar(item))
            }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .string(let text): return quoted(text)
        case .array: return "[]"
        case .object: return "{}"
        }
    }

    /// Words YAML 1.1 or 1.2 resolvers read as something other than a string.
    private static let reservedWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

    /// A string as a YAML scalar that reads back as exactly this string.
    public static func quoted(_ text: String) -> String {
        if isPlainSafe(text) { return text }
        if text.unicodeScalars.allSatisfy(isPrintable) {
            // Foundation's replacing is a search per call; most texts hold no quote at all.
            guard text.utf8.contains(0x27) else { return "'" + text + "'" }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
        return doubleQuoted(text)
    }

    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !reservedWords.contains(text.lowercased()) else { return false }
        // A leading digit, sign or dot may read as a number; anything else leading is an indicator.
        guard ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "_.-/".unicodeScalars.contains(scalar)
        }
    }

    /// What single quotes may hold: printable characters (YAML 1.2 `nb-char` without line breaks).
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: return true
        case 0xA0...0xD7FF: return scalar.value != 0x2028 && scalar.value != 0x2029
        case 0xE000...0xFFFD: return scalar.value != 0xFEFF
        case 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func doubleQuoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case "\0": output += "\\0"
            default:
                if isPrintable(scalar) {
                    output.unicodeScalars.append(scalar)
                } else if scalar.value <= 0xFF {
                    output += "\\x" + hex(scalar.value, width: 2)
                } else {
                    output += "\\u" + hex(scalar.value, width: 4)
                }
            }
        }
        return output + "\""
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
