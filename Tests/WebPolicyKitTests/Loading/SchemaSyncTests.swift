import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// `schemas/webpolicy.schema.json` declares exactly the keys and values the loader reads. (CI's
/// `ci/checks/schema_agreement.py` checks, with a real JSON Schema validator, that both reject
/// the same fixtures.)
@Suite("JSON Schema in sync with the loader")
struct SchemaSyncTests {
    nonisolated(unsafe) static let schema: [String: Any] = {
        let data = FileManager.default.contents(atPath: Repository.path("schemas/webpolicy.schema.json")) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }()

    static func definition(_ name: String) -> [String: Any] {
        ((schema["$defs"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
    }

    static func keys(_ object: [String: Any]) -> Set<String> {
        Set((object["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    static func enumValues(_ object: [String: Any]) -> Set<String> {
        Set((object["enum"] as? [String]) ?? [])
    }

    static func property(_ definition: String, _ key: String) -> [String: Any] {
        ((Self.definition(definition)["properties"] as? [String: Any])?[key] as? [String: Any]) ?? [:]
    }

    @Test func schemaIsDraft2020And12() {
        #expect(Self.schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func keysMatchTheLoader() {
        #expect(Self.keys(Self.schema) == Set(PolicyKeys.topLevel))
        #expect(Self.keys(Self.definition("target")) == Set(PolicyKeys.target))
        #expect(Self.keys(Self.definition("httpAllowlistEntry")) == Set(PolicyKeys.httpAllowlistEntry))
        #expect(Self.keys(Self.definition("schemeAllowlistEntry")) == Set(PolicyKeys.schemeAllowlistEntry))
        #expect(Self.keys(Self.definition("contentRule")) == Set(PolicyKeys.contentRule))
        #expect(Self.keys(Self.definition("redirect")) == Set(PolicyKeys.redirect))
        #expect(Self.keys(Self.definition("urlTransform")) == Set(PolicyKeys.urlTransform))
        #expect(Self.keys(Self.definition("headerOperation")) == Set(PolicyKeys.headerOperation))
        #expect(Self.keys(Self.definition("cookie")) == Set(PolicyKeys.cookie))
        #expect(Self.keys(Self.definition("interceptionRule")) == Set(PolicyKeys.interceptionRule))
        #expect(Self.keys(Self.definition("navigation")) == Set(PolicyKeys.navigation))
        #expect(Self.keys(Self.definition("navigationEntry")) == Set(PolicyKeys.navigationEntry))
        #expect(Self.keys(Self.definition("appBoundDomains")) == Set(PolicyKeys.appBoundDomains))
        #expect(Self.keys(Self.definition("webView")) == Set(PolicyKeys.webView))
    }

    /// Both schemas' entries for the catalogue's on/off settings are written from the catalogue:
    /// a new row is a new entry in each after one run with WEBPOLICY_RECORD=1, which also
    /// rewrites the copy of the policy schema the binary carries. The rows sit together, in
    /// the catalogue's order, where the first of them is.
    @Test func theWebViewEntriesAreWrittenFromTheCatalogue() throws {
        let rows = WebViewSettingCatalogue.booleans
        let policyEntries = rows.map { ($0.key, JSONValue.object([("type", .string("boolean")), ("description", .string($0.description))])) }
        let manifestEntries = rows.map { row -> (String, JSONValue) in
            let description = "\(row.api) (iOS \(row.firstIOS); default \(row.defaultValue))."
            return (row.manifestKey, .object([("type", .string("boolean")), ("description", .string(description))]))
        }
        try Self.check("schemas/webpolicy.schema.json", at: ["$defs", "webView", "properties"], entries: policyEntries, required: false)
        try Self.check("schemas/runtime-manifest.schema.json", at: ["properties", "webView", "properties"], entries: manifestEntries, required: true)
        // The named web-page preferences: the policy's words (`lockdown` takes YAML's true and
        // false, and `device`), optional in both.
        let choices = WebViewSettingCatalogue.choices
        let policyChoices = choices.map { row -> (String, JSONValue) in
            let names: [JSONValue] = row.key == "lockdown" ? [.bool(true), .bool(false), .string("device")] : row.choices.map { .string($0.name) }
            return (row.key, .object([("enum", .array(names)), ("description", .string(row.description))]))
        }
        let manifestChoices = choices.map { row -> (String, JSONValue) in
            (row.manifestKey, .object([("enum", .array(row.choices.map { .string($0.name) })), ("description", .string("\(row.api) (iOS \(row.firstIOS)); absent: \(row.unset) (version 5)."))]))
        }
        try Self.check("schemas/webpolicy.schema.json", at: ["$defs", "webView", "properties"], entries: policyChoices, required: false)
        try Self.check("schemas/runtime-manifest.schema.json", at: ["properties", "webView", "properties"], entries: manifestChoices, required: false)
    }

    /// Holds the object at `path` of the schema file to `entries` (and, with `required`, its
    /// parent's `required` list too), rewriting the file when recording.
    static func check(_ file: String, at path: [String], entries: [(String, JSONValue)], required: Bool) throws {
        let text = try #require(Repository.read(file))
        let root = try Self.value(JSONDocument.parse(text).get())
        let generated = Self.replacing(root, at: path[...], entries: entries, required: required)
        let expected = generated.serialized()
        if Repository.isRecording, expected != text {
            try expected.write(toFile: Repository.path(file), atomically: true, encoding: .utf8)
            if file == "schemas/webpolicy.schema.json" { try PolicySchemaTests.writeSwiftCopy(of: expected) }
        }
        #expect(expected == text, "\(file)'s webview entries differ from WebViewSettingCatalogue: run the tests with WEBPOLICY_RECORD=1")
    }

    static func replacing(_ value: JSONValue, at path: ArraySlice<String>, entries: [(String, JSONValue)], required: Bool) -> JSONValue {
        guard case .object(var members) = value, let key = path.first else { return value }
        if path.count == 1 {
            let keys = Set(entries.map(\.0))
            members = members.map { member in
                guard member.0 == key, case .object(let properties) = member.1 else {
                    guard required, member.0 == "required", case .array(let names) = member.1 else { return member }
                    let kept = names.compactMap { name -> String? in
                        guard case .string(let name) = name else { return nil }
                        return name
                    }
                    return ("required", .array(Self.merged(kept.map { ($0, JSONValue.null) }, entries.map { ($0.0, JSONValue.null) }, keys).map { .string($0.0) }))
                }
                return (key, .object(Self.merged(properties, entries, keys)))
            }
            return .object(members)
        }
        return .object(members.map { $0.0 == key ? ($0.0, Self.replacing($0.1, at: path.dropFirst(), entries: entries, required: required)) : $0 })
    }

    /// `members` with those in `keys` taken out and `entries` put where the first of them was
    /// (at the end when none was).
    static func merged(_ members: [(String, JSONValue)], _ entries: [(String, JSONValue)], _ keys: Set<String>) -> [(String, JSONValue)] {
        let first = members.firstIndex { keys.contains($0.0) } ?? members.count
        var result = members[..<first].filter { !keys.contains($0.0) }
        result += entries
        result += members[first...].filter { !keys.contains($0.0) }
        return result
    }

    /// A parsed JSON value as the writer's value (the schemas hold whole numbers only).
    static func value(_ node: JSONNode) -> JSONValue {
        switch node.value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let value): return .int(Int(value))
        case .string(let value): return .string(value)
        case .array(let items): return .array(items.map(value))
        case .object(let members): return .object(members.map { ($0.key, value($0.value)) })
        }
    }

    /// Each on/off setting of the catalogue is a boolean in both schemas, described in the
    /// policy's as the catalogue describes it, and required in the manifest's (the compiler
    /// writes every one).
    @Test func everyWebViewSettingIsInBothSchemas() throws {
        let data = try #require(FileManager.default.contents(atPath: Repository.path("schemas/runtime-manifest.schema.json")))
        let manifestSchema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let manifestWebView = try #require((manifestSchema["properties"] as? [String: Any])?["webView"] as? [String: Any])
        let manifestProperties = try #require(manifestWebView["properties"] as? [String: Any])
        let required = Set(manifestWebView["required"] as? [String] ?? [])
        for row in WebViewSettingCatalogue.booleans {
            let policy = Self.property("webView", row.key)
            #expect(policy["type"] as? String == "boolean", "\(row.key)")
            #expect(policy["description"] as? String == row.description, "\(row.key)")
            #expect((manifestProperties[row.manifestKey] as? [String: Any])?["type"] as? String == "boolean", "\(row.manifestKey)")
            #expect(required.contains(row.manifestKey), "\(row.manifestKey)")
        }
    }

    @Test func enumsMatchTheModel() {
        #expect(Self.enumValues(Self.property("contentRule", "action")) == Set(ContentActionType.allCases.map(\.rawValue)))
        #expect(Self.enumValues(Self.property("cookie", "same-site")) == Set(SameSite.allCases.map(\.rawValue)))
        #expect(Self.enumValues(Self.property("cookie", "via")) == Set(CookieDelivery.allCases.map(\.rawValue)))
        #expect(Self.enumValues(Self.property("target", "distribution")) == Set(Distribution.allCases.map(\.rawValue)))
        #expect(Self.enumValues(Self.property("headerOperation", "operation")) == Set(HeaderOperationType.allCases.map(\.rawValue)))
        #expect(Self.enumValues(Self.property("navigation", "otherwise")) == Set(NavigationOtherwise.allCases.map(\.rawValue)))
        #expect(Self.enumValues(Self.property("navigation", "new-windows")) == Set(NewWindowPolicy.allCases.map(\.rawValue)))
        let items = { (key: String) in Self.enumValues((Self.property("contentRule", key)["items"] as? [String: Any]) ?? [:]) }
        #expect(items("resource-type") == Set(ResourceType.allCases.map(\.rawValue)))
        #expect(items("load-type") == Set(LoadType.allCases.map(\.rawValue)))
        #expect(items("load-context") == Set(LoadContext.allCases.map(\.rawValue)))
    }

    @Test func requestMethodPatternAcceptsEveryMethodInAnyCase() throws {
        let pattern = try #require(Self.definition("requestMethod")["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        for method in RequestMethod.allCases.map(\.rawValue) {
            for spelling in [method, method.uppercased(), method.prefix(1).uppercased() + method.dropFirst()] {
                #expect(regex.firstMatch(in: spelling, range: NSRange(spelling.startIndex..., in: spelling)) != nil, "\(spelling)")
            }
        }
        #expect(regex.firstMatch(in: "fetch", range: NSRange(location: 0, length: 5)) == nil)
    }
}

/// The `webview` table of docs/policy-format.md has a line for every on/off setting, with
/// the catalogue's API and iOS.
@Suite("The webview table in the docs")
struct WebViewSettingDocsTests {
    @Test func everyRowIsDocumented() throws {
        let docs = try #require(Repository.read("docs/policy-format.md"))
        for row in WebViewSettingCatalogue.booleans {
            #expect(docs.contains("| `\(row.key)` | `\(row.api)` | \(row.firstIOS) | `\(row.defaultValue)`"), "\(row.key)")
        }
    }
}
