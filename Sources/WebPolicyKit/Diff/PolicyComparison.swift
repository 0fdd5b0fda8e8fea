import WebPolicyRuntime

/// What changed between two versions of a policy, entry by entry (`webpolicy diff OLD NEW`
/// with no traces): rules and entries added, removed and changed, each with its location and,
/// when changed, the fields that differ. Read from the YAML each file was written in, so a
/// field nobody simulates (a description, a reason) counts too: a review sees all of it.
public struct PolicyComparison: Sendable {
    public enum Action: String, Sendable {
        case removed, changed, added
    }

    public struct Field: Sendable, Equatable {
        /// `url-filter`, `if-domain`, `request-headers[0].value`.
        public var name: String
        public var old: String?
        public var new: String?
    }

    public struct Difference: Sendable {
        public var action: Action
        /// `content rule`, `http-allowlist entry`… (the words coverage uses), or `setting`.
        public var kind: String
        public var name: String
        public var oldLocation: SourceLocation?
        public var newLocation: SourceLocation?
        public var fields: [Field] = []
    }

    public let differences: [Difference]

    public var added: Int { differences.filter { $0.action == .added }.count }
    public var removed: Int { differences.filter { $0.action == .removed }.count }
    public var changed: Int { differences.filter { $0.action == .changed }.count }

    public init(old: Policy, new: Policy) {
        let before = Entry.all(of: old), after = Entry.all(of: new)
        var differences = Self.settings(old: old, new: new)
        for section in Entry.sections {
            differences += Self.compare(before.filter { $0.section == section.key }, after.filter { $0.section == section.key }, kind: section.kind)
        }
        self.differences = differences
    }

    /// The root file's `name`, `description` and `target`: what speaks for the whole policy.
    private static func settings(old: Policy, new: Policy) -> [Difference] {
        func values(_ policy: Policy) -> [(String, String, SourceLocation)] {
            let root = policy.root
            var values: [(String, String, SourceLocation)] = []
            if let name = root.name { values.append(("name", name.value, name.location)) }
            if let description = root.description { values.append(("description", description.value, description.location)) }
            if let ios = root.target?.ios { values.append(("target.ios", ios.value.description, ios.location)) }
            if let distribution = root.target?.distribution { values.append(("target.distribution", distribution.value.rawValue, distribution.location)) }
            return values
        }
        let before = values(old), after = values(new)
        var differences: [Difference] = []
        for key in ["name", "description", "target.ios", "target.distribution"] {
            let was = before.first { $0.0 == key }, now = after.first { $0.0 == key }
            guard was?.1 != now?.1 else { continue }
            differences.append(Difference(action: was == nil ? .added : now == nil ? .removed : .changed, kind: "setting", name: key,
                                          oldLocation: was?.2, newLocation: now?.2, fields: [Field(name: key, old: was?.1, new: now?.1)]))
        }
        return differences
    }

    /// Pairs one section's entries by key (an id, a host, a scheme…; the nth of a key with the
    /// nth), then entries without one by identical content, then what is left of them in order
    /// when they share an action; the rest are removed and added.
    private static func compare(_ before: [Entry], _ after: [Entry], kind: String) -> [Difference] {
        var pairs: [(old: Int, new: Int)] = []
        var unmatchedOld = Set(before.indices), unmatchedNew = Set(after.indices)
        func pair(where matches: (Entry, Entry) -> Bool) {
            for new in after.indices where unmatchedNew.contains(new) {
                guard let old = before.indices.first(where: { unmatchedOld.contains($0) && matches(before[$0], after[new]) }) else { continue }
                pairs.append((old, new))
                unmatchedOld.remove(old)
                unmatchedNew.remove(new)
            }
        }
        pair { $0.key != nil && $0.key == $1.key }
        pair { $0.key == nil && $1.key == nil && $0.hasSameFields(as: $1) }
        pair { $0.key == nil && $1.key == nil && $0.group == $1.group }

        var differences: [Difference] = []
        for old in before.indices where unmatchedOld.contains(old) {
            differences.append(Difference(action: .removed, kind: kind, name: before[old].name, oldLocation: before[old].location))
        }
        for new in after.indices {
            if unmatchedNew.contains(new) {
                differences.append(Difference(action: .added, kind: kind, name: after[new].name, newLocation: after[new].location))
                continue
            }
            guard let old = pairs.first(where: { $0.new == new })?.old else { continue }
            let fields = Self.fieldChanges(before[old].fields, after[new].fields)
            guard !fields.isEmpty else { continue }
            differences.append(Difference(action: .changed, kind: kind, name: after[new].name, oldLocation: before[old].location, newLocation: after[new].location, fields: fields))
        }
        return differences
    }

    private static func fieldChanges(_ old: [(String, String)], _ new: [(String, String)]) -> [Field] {
        var names: [String] = []
        for (name, _) in old + new where !names.contains(name) { names.append(name) }
        return names.compactMap { name in
            let was = old.first { $0.0 == name }?.1, now = new.first { $0.0 == name }?.1
            return was == now ? nil : Field(name: name, old: was, new: now)
        }
    }
}

/// One section entry as written: its fields flattened to `name: value` in file order.
private struct Entry {
    static let sections: [(key: String, kind: String)] = [
        ("http-allowlist", Coverage.Kind.httpAllowlist.rawValue),
        ("scheme-allowlist", Coverage.Kind.schemeAllowlist.rawValue),
        ("content-rules", Coverage.Kind.contentRule.rawValue),
        ("content-rule-lists", Coverage.Kind.contentRuleList.rawValue),
        ("interception", Coverage.Kind.interception.rawValue),
        ("cookies", Coverage.Kind.cookie.rawValue),
    ]

    var section: String
    /// What pairs it with its other version; nil for a content rule without an id.
    var key: String?
    /// For entries without a key: what must agree to pair them by position (the action).
    var group: String
    var name: String
    var location: SourceLocation
    var fields: [(String, String)]

    /// The same fields with the same values, in any order.
    func hasSameFields(as other: Entry) -> Bool {
        let sorted = { (fields: [(String, String)]) in fields.sorted { $0 < $1 } }
        return fields.count == other.fields.count && zip(sorted(fields), sorted(other.fields)).allSatisfy { $0 == $1 }
    }

    /// Every entry of every file of the policy, in merge order.
    static func all(of policy: Policy) -> [Entry] {
        var entries: [Entry] = []
        var ordinals: [String: Int] = [:]
        for document in policy.documents {
            guard let root = YAMLComposer.compose(document.file).root, let pairs = root.mapping else { continue }
            for (key, _) in sections {
                guard let items = pairs.first(where: { $0.key.scalar?.value == key })?.value.sequence else { continue }
                for item in items {
                    var fields: [(String, String)] = []
                    flatten(item, into: &fields, prefix: "")
                    let location = document.file.location(item.range)
                    if key == "content-rule-lists", let list = policy.contentRuleLists.first(where: { $0.reference.location == location }) {
                        // A list's rules live in its file: a changed file is a changed entry.
                        fields.append(("rules", "\(list.rules.count), sha256 \(SHA256.hex(Array(list.file.text.utf8)).prefix(16))"))
                    }
                    let value = { (name: String) in fields.first { $0.0 == name }?.1 }
                    var identity: String?
                    var name: String
                    switch key {
                    case "http-allowlist": identity = value("host"); name = "'\(identity ?? "")'"
                    case "scheme-allowlist": identity = value("scheme"); name = "'\(identity ?? "")'"
                    case "content-rules":
                        identity = value("id")
                        name = identity.map { "'\($0)'" } ?? [value("action"), value("url-filter").map { "'\($0)'" }].compactMap { $0 }.joined(separator: " ")
                    case "content-rule-lists": identity = value("id") ?? value("path"); name = "'\(identity ?? "")'"
                    case "cookies": identity = [value("name"), value("domain")].compactMap { $0 }.joined(separator: " for "); name = "'\(value("name") ?? "")' for \(value("domain") ?? "")"
                    default: identity = value("id") ?? value("scheme"); name = "'\(identity ?? "")'"
                    }
                    // The nth entry of a key pairs with the nth: a scheme listed twice, for other hosts.
                    if let base = identity {
                        let seen = ordinals[key + "\u{1}" + base, default: 0] + 1
                        ordinals[key + "\u{1}" + base] = seen
                        if seen > 1 { identity = base + "#\(seen)" }
                    }
                    entries.append(Entry(section: key, key: identity, group: value("action") ?? "", name: name, location: location, fields: fields))
                }
            }
        }
        return entries
    }

    /// `url-filter: x`, `load-type: [third-party]`, `request-headers[0].value: y`.
    private static func flatten(_ node: YAMLNode, into fields: inout [(String, String)], prefix: String) {
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
