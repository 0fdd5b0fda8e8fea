import WebPolicyRuntime

/// A YAML node with the source range of everything it holds. Built by `YAMLComposer` from
/// libyaml's events, so nothing about where a value was written is lost.
public struct YAMLNode: Sendable {
    public enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var content: Content
    /// From the node's first character to just after its last one (quotes included).
    public var range: SourceRange
    /// An explicit tag (`!!str`, `!custom`), expanded as libyaml reports it.
    public var tag: String?

    public init(content: Content, range: SourceRange, tag: String? = nil) {
        self.content = content
        self.range = range
        self.tag = tag
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }
}

public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}

/// The five ways YAML writes a scalar; the loader needs them to map an offset inside the value
/// back to a column in the file.
public enum ScalarStyle: Sendable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded
}

public struct YAMLScalar: Sendable {
    public var value: String
    public var style: ScalarStyle

    /// What the scalar means under the YAML 1.2 core schema, with one deliberate exception:
    /// only `true` and `false` are booleans (as in SwiftLint); YAML 1.1's `yes`, `on` and
    /// friends stay strings so that the loader can point them out.
    public var resolved: ResolvedScalar {
        guard style == .plain else { return .string(value) }
        switch value {
        case "", "~", "null", "Null", "NULL": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: break
        }
        if let integer = YAMLScalar.integer(value) { return .int(integer) }
        if YAMLScalar.isFloat(value) { return .float(value) }
        return .string(value)
    }

    /// Whether the scalar is YAML null (`~`, `null`, or nothing at all) — `resolved == .null`
    /// without trying the numeric forms.
    public var isNull: Bool {
        guard style == .plain else { return false }
        switch value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// Spellings that some YAML dialects read as booleans but webpolicy does not.
    public var looksLikeOtherBoolean: Bool {
        guard style == .plain else { return false }
        return ["yes", "no", "on", "off", "y", "n", "True", "False", "TRUE", "FALSE",
                "Yes", "No", "YES", "NO", "On", "Off", "ON", "OFF"].contains(value)
    }

    /// YAML 1.2 core schema integers: decimal, `0o` octal, `0x` hexadecimal.
    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text.hasPrefix("+") ? String(text.dropFirst()) : text)
    }

    /// YAML 1.2 core schema floats (`1.5`, `-2e3`, `.inf`, `.nan`).
    static func isFloat(_ text: String) -> Bool {
        if [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN"].contains(text) {
            return true
        }
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "-" || scalars.first == "+" { scalars = scalars.dropFirst() }
        var sawDigit = false
        var sawDot = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if ("0"..."9").contains(scalar) {
                sawDigit = true
            } else if scalar == ".", !sawDot {
                sawDot = true
            } else if scalar == "e" || scalar == "E" {
                guard sawDigit else { return false }
                var exponent = scalars[scalars.index(after: index)...]
                if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
                return !exponent.isEmpty && exponent.allSatisfy { ("0"..."9").contains($0) }
            } else {
                return false
            }
            index = scalars.index(after: index)
        }
        return sawDigit && sawDot
    }
}

public enum ResolvedScalar: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case float(String)
    case string(String)

    /// How the loader names this kind of value in messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .float: return "number"
        case .string: return "string"
        }
    }
}
