import Foundation

/// The part of JSON Schema (draft 2020-12) that the repository's own schemas use — `$ref` to
/// `#/$defs/…`, `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `oneOf`, `minimum`, `maximum`, `minLength`, `pattern` — so tests check a file against a
/// schema in-process. CI checks the same files with a full validator (check-jsonschema); a
/// keyword this one does not know is an error here, never a pass.
public struct JSONSchemaValidator {
    public let root: [String: Any]

    public init(schema: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: schema) as? [String: Any] else { throw ValidatorError("the schema is not an object") }
        self.root = root
    }

    /// Every place the value breaks the schema, as "path: what" lines; empty when it conforms.
    public func problems(_ json: Data) throws -> [String] {
        let value = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        var problems: [String] = []
        check(value, root, at: "$", into: &problems)
        return problems
    }

    static let known: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required", "additionalProperties",
        "items", "enum", "oneOf", "minimum", "maximum", "minLength", "pattern",
    ]

    private func check(_ value: Any, _ schema: [String: Any], at path: String, into problems: inout [String]) {
        for keyword in schema.keys where !Self.known.contains(keyword) {
            problems.append("\(path): the schema uses '\(keyword)', which this validator does not check")
        }
        if let reference = schema["$ref"] as? String {
            guard let target = resolve(reference) else { return problems.append("\(path): no definition \(reference)") }
            check(value, target, at: path, into: &problems)
        }
        if let type = schema["type"] as? String, !Self.value(value, is: type) {
            problems.append("\(path): is not of type \(type)")
            return
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            problems.append("\(path): \(value) is none of the enum's values")
        }
        if let alternatives = schema["oneOf"] as? [[String: Any]] {
            let matching = alternatives.filter { alternative in
                var found: [String] = []
                check(value, alternative, at: path, into: &found)
                return found.isEmpty
            }.count
            if matching != 1 { problems.append("\(path): matches \(matching) of oneOf's alternatives, not one") }
        }
        if let number = value as? NSNumber, !Self.isBoolean(value) {
            if let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue { problems.append("\(path): \(number) is below \(minimum)") }
            if let maximum = schema["maximum"] as? NSNumber, number.doubleValue > maximum.doubleValue { problems.append("\(path): \(number) is above \(maximum)") }
        }
        if let string = value as? String {
            if let minimum = schema["minLength"] as? Int, string.count < minimum { problems.append("\(path): is shorter than \(minimum)") }
            if let pattern = schema["pattern"] as? String {
                let regex = try? NSRegularExpression(pattern: pattern)
                if regex?.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) == nil { problems.append("\(path): '\(string)' does not match \(pattern)") }
            }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path): lacks the required '\(name)'")
            }
            for (name, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] as? [String: Any] {
                    check(member, property, at: "\(path).\(name)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if Self.isBoolean(additional), (additional as? NSNumber)?.boolValue == false {
                        problems.append("\(path): has '\(name)', which the schema does not declare")
                    } else if let additionalSchema = additional as? [String: Any] {
                        check(member, additionalSchema, at: "\(path).\(name)", into: &problems)
                    }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { check(item, items, at: "\(path)[\(index)]", into: &problems) }
        }
    }

    private func resolve(_ reference: String) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any = root
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(part)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    /// Foundation reads JSON's true and false as NSNumber (on Linux too), of Objective-C type
    /// `c`; JSON's numbers are `i`, `q` or `d`.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func value(_ value: Any, is type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBoolean(value)
        case "integer": return !isBoolean(value) && (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": return !isBoolean(value) && value is NSNumber
        case "null": return value is NSNull
        default: return false
        }
    }

    static func equal(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let a as String, let b as String): return a == b
        case (let a as NSNumber, let b as NSNumber): return isBoolean(a) == isBoolean(b) && a == b
        default: return false
        }
    }
}

public struct ValidatorError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
