import WebPolicyRuntime

/// One top-level section of a policy and everything the tooling does with it, in one place:
/// how it is read from a file, merged across includes, lowered into the runtime manifest,
/// compared by `diff`, counted by coverage and declared in the JSON schema. `Sections.all`
/// lists every section once; every command reads that list, and `SectionRegistryTests` fails
/// when a section is missing from any stage.
///
/// A new section is a folder under `Sections/` with its model and a type conforming to this
/// protocol, one line in `Sections.all`, its definitions in `schemas/webpolicy.schema.json`,
/// and — when it decides requests — a step in the runtime's pipeline
/// (`WebPolicyRuntime/Decision`). `docs/architecture.md` walks through it.
protocol PolicySection: Sendable {
    /// The top-level key, as a policy writes it.
    static var key: String { get }
    /// The schema's definitions for the section and the keys each may hold; the schema test
    /// holds `schemas/webpolicy.schema.json` to them.
    static var schemaDefinitions: [(definition: String, keys: [String])] { get }
    /// The words coverage and `diff` use for its entries (`http-allowlist entry`); a setting
    /// of a mapping section is a `setting`.
    static var entryKinds: [String] { get }
    /// The category of the lint rules that check it (`docs/rules.md`'s heading, and the folder
    /// under `Lint/Rules` they sit in).
    static var ruleCategory: RuleCategory { get }
    /// The runtime pipeline's steps that decide by it; none for a section that only configures.
    static var pipelineSteps: [PipelineStep] { get }

    /// Reads the section's value in one file (called when `fields` has `key`), reporting
    /// structural problems through the decoder and keeping the rest.
    static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder)
    /// Sets the section's merged value on `policy` from every file, included files first.
    static func merge(_ documents: [PolicyDocument], into policy: inout Policy)
    /// Writes what the app enforces of it into the manifest. `lists` are the compiled
    /// content-rule lists, the policy's own before those it references.
    static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest)
    /// Its entries and settings as one file writes them, for `diff`.
    static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry]
    /// What coverage counts of it, in policy order.
    static func coverageItems(of policy: Policy) -> [Coverage.Item]
    /// Marks the items one request exercised of it: the entries that decided the request, the
    /// rules it matched, the cookies it sent (the registry test checks a sample request marks
    /// one).
    static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks)

    /// How many entries or settings each stage holds: what the registry test compares.
    static func census(_ document: PolicyDocument) -> Int
    static func census(_ policy: Policy) -> Int
    static func census(_ manifest: Manifest) -> Int
}

/// A section that is a list of entries, concatenated across includes in document order: its
/// decode, merge and census come from where its entries are kept.
protocol ListSection: PolicySection {
    associatedtype Entry: Sendable
    static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { get }
    static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { get }
    /// One entry of one file; nil when it is too broken to keep (the decoder said why).
    static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> Entry?
}

extension ListSection {
    static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
        document[keyPath: entriesOfDocument] = decoder.section(key, in: fields) { decodeEntry($1, with: &$0) }
    }

    static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
        policy[keyPath: entriesOfPolicy] = documents.flatMap { $0[keyPath: entriesOfDocument] }
    }

    static func census(_ document: PolicyDocument) -> Int { document[keyPath: entriesOfDocument].count }
    static func census(_ policy: Policy) -> Int { policy[keyPath: entriesOfPolicy].count }
}

/// The registry: every section of a policy, in documentation order.
enum Sections {
    static let all: [any PolicySection.Type] = [
        HTTPAllowlist.self,
        SchemeAllowlist.self,
        ContentRules.self,
        ContentRuleLists.self,
        Cookies.self,
        Interception.self,
        Navigation.self,
        AppBoundDomains.self,
        Bridges.self,
        WebView.self,
        RuntimeHosts.self,
    ]

    /// The top-level keys that are not sections: what the policy says of itself.
    static let headerKeys = ["webpolicy", "name", "description", "target", "include"]
}

/// One entry or setting of a section as a file writes it: its fields flattened to
/// `name: value` in file order, and what pairs it with its other version in `diff`.
struct SectionEntry {
    /// `http-allowlist entry`, `bridge`…, or `setting`.
    var kind: String
    /// What pairs it with its other version (an id, a host, a name); nil when nothing does
    /// (a content rule without an id), and it pairs by content, then by `group` in order.
    var key: String?
    var group: String = ""
    var name: String
    var location: SourceLocation
    var fields: [(String, String)]
    /// A setting shows its value when it is added or removed: the value is all it has.
    var isSetting = false

    /// The same fields with the same values, in any order.
    func hasSameFields(as other: SectionEntry) -> Bool {
        let sorted = { (fields: [(String, String)]) in fields.sorted { $0 < $1 } }
        return fields.count == other.fields.count && zip(sorted(fields), sorted(other.fields)).allSatisfy { $0 == $1 }
    }

    func value(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

    /// Each item of a list section, named by `identify` from its flattened fields.
    static func list(_ node: YAMLNode, in file: SourceFile, kind: String, identify: (SectionEntry) -> (key: String?, name: String)) -> [SectionEntry] {
        (node.sequence ?? []).map { item in
            var fields: [(String, String)] = []
            flatten(item, into: &fields, prefix: "")
            var entry = SectionEntry(kind: kind, key: nil, name: "", location: file.location(item.range), fields: fields)
            (entry.key, entry.name) = identify(entry)
            entry.group = entry.value("action") ?? ""
            return entry
        }
    }

    /// A mapping section's scalar settings, each its own entry: `webview.inspectable`.
    static func settings(_ node: YAMLNode, in file: SourceFile, section: String, keys: [String]) -> [SectionEntry] {
        (node.mapping ?? []).compactMap { pair in
            guard let key = pair.key.scalar?.value, keys.contains(key) else { return nil }
            var fields: [(String, String)] = []
            flatten(pair.value, into: &fields, prefix: "")
            let name = "\(section).\(key)"
            return SectionEntry(kind: "setting", key: name, name: name, location: file.location(pair.key.range),
                                fields: fields.map { ($0.0.isEmpty ? name : "\(name).\($0.0)", $0.1) }, isSetting: true)
        }
    }

    /// The value under `key` of a mapping node.
    static func member(_ key: String, of node: YAMLNode) -> YAMLNode? {
        node.mapping?.first { $0.key.scalar?.value == key }?.value
    }

    /// `url-filter: x`, `load-type: [third-party]`, `request-headers[0].value: y`.
    static func flatten(_ node: YAMLNode, into fields: inout [(String, String)], prefix: String) {
        switch node.content {
        case .scalar(let scalar):
            fields.append((prefix, scalar.value))
        case .sequence(let items):
            if items.allSatisfy({ $0.scalar != nil }) {
                fields.append((prefix, "[" + items.compactMap { $0.scalar?.value }.joined(separator: ", ") + "]"))
            } else {
                for (index, item) in items.enumerated() { flatten(item, into: &fields, prefix: "\(prefix)[\(index)]") }
            }
        case .mapping(let pairs):
            for pair in pairs {
                let name = pair.key.scalar?.value ?? "?"
                flatten(pair.value, into: &fields, prefix: prefix.isEmpty ? name : prefix + "." + name)
            }
        }
    }
}
