import URLFilter

/// JSON with keys kept in the order they were given, written with two-space indentation —
/// byte-stable output for reports today and content-blocker lists later. Foundation's
/// `JSONSerialization` neither keeps key order nor writes the same bytes on every platform.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value as text; `pretty` indents with two spaces and ends with a newline.
    public func serialized(pretty: Bool = true) -> String {
        var output: [UInt8] = []
        write(into: &output, pretty: pretty)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the value's text as UTF-8; `pretty` as for `serialized`.
    public func write(into output: inout [UInt8], pretty: Bool = false) {
        write(into: &output, indent: pretty ? 0 : nil)
        if pretty { output.append(0x0A) }
    }

    private func write(into output: inout [UInt8], indent: Int?) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONStringBytes.append(value, to: &output)
        case .string(let value): JSONStringBytes.append(quoting: value, to: &output)
        case .array(let items):
            guard !items.isEmpty else { output.append(contentsOf: "[]".utf8); return }
            output.append(0x5B)
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONValue.newline(&output, indent.map { $0 + 1 })
                item.write(into: &output, indent: indent.map { $0 + 1 })
            }
            JSONValue.newline(&output, indent)
            output.append(0x5D)
        case .object(let members):
            guard !members.isEmpty else { output.append(contentsOf: "{}".utf8); return }
            output.append(0x7B)
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONValue.newline(&output, indent.map { $0 + 1 })
                JSONStringBytes.append(quoting: key, to: &output)
                output.append(0x3A)
                if indent != nil { output.append(0x20) }
                value.write(into: &output, indent: indent.map { $0 + 1 })
            }
            JSONValue.newline(&output, indent)
            output.append(0x7D)
        }
    }

    private static func newline(_ output: inout [UInt8], _ indent: Int?) {
        guard let indent else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: 2 * indent))
    }
}
