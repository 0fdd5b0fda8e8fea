/// A value as the app's source writes it: a literal the audit can compare with the policy, or
/// an expression it can only name. What cannot be known from the source stays an expression,
/// with its text, so a finding can say what to declare — it is never guessed.
public struct CodeValue: Sendable, Hashable {
    public enum Kind: String, Sendable {
        /// A string literal without interpolation, or a constant holding one.
        case string
        case bool
        case number
        case `nil`
        /// `"…\(x)…"`, `@"…"` with `%@` through a format call, or `a + b` with a non-literal.
        case interpolated
        /// Interpolation whose every value is a number, a Boolean, or passed through a function
        /// that encodes it for script (`JSONEncoder` output unquoted, `escape…`, `…quoted`).
        case encoded = "interpolated-encoded"
        /// Anything else: a call, a property of the app's own, a parameter.
        case expression
    }

    public var kind: Kind
    /// The literal's value for `string`, `bool` and `number`; the source text otherwise.
    public var text: String
    /// The constant the value was read through (`Bridge.name`, `kBridgeName`), if any.
    public var constant: String?
    /// An expression that is a plain name (`name`, `Bridge.name`, `kLogHandler`): resolved
    /// across the module after every file is read.
    public var reference: String?

    public init(kind: Kind, text: String, constant: String? = nil, reference: String? = nil) {
        self.kind = kind
        self.text = text
        self.constant = constant
        self.reference = reference
    }

    public static func string(_ value: String) -> CodeValue { CodeValue(kind: .string, text: value) }
    public static func bool(_ value: Bool) -> CodeValue { CodeValue(kind: .bool, text: value ? "true" : "false") }
    public static func expression(_ text: String, reference: String? = nil) -> CodeValue {
        CodeValue(kind: .expression, text: text, reference: reference)
    }

    public var stringValue: String? { kind == .string ? text : nil }
    public var boolValue: Bool? { kind == .bool ? text == "true" : nil }
    /// A literal, or a constant holding one: something the audit can compare.
    public var isKnown: Bool { kind != .expression && kind != .interpolated && kind != .encoded }

    /// How a finding quotes it: `"native"`, `true`, or the expression as written.
    public var quoted: String {
        switch kind {
        case .string: return constant.map { "'\(text)' (\($0))" } ?? "'\(text)'"
        case .bool, .number, .nil: return constant.map { "\(text) (\($0))" } ?? text
        case .interpolated, .encoded, .expression: return "'\(Self.abbreviated(text))'"
        }
    }

    /// Source text for a one-line message: blanks collapsed, at most 80 characters.
    public static func abbreviated(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        return collapsed.count <= 80 ? collapsed : String(collapsed.prefix(79)) + "…"
    }
}
