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
        let before = Self.entries(of: old), after = Self.entries(of: new)
        var differences = Self.settings(old: old, new: new)
        // Section by section (the registry's order), kind by kind within a section.
        for section in Sections.all {
            for kind in section.entryKinds {
                let was = before.filter { $0.section == section.key && $0.entry.kind == kind }.map(\.entry)
                let now = after.filter { $0.section == section.key && $0.entry.kind == kind }.map(\.entry)
                differences += Self.compare(was, now, kind: kind)
            }
        }
        self.differences = differences
    }

    /// Every entry and setting of every file of the policy, as written, in merge order; the
    /// nth entry of a key pairs with the nth (a scheme listed twice, for other hosts).
    private static func entries(of policy: Policy) -> [(section: String, entry: SectionEntry)] {
        var entries: [(section: String, entry: SectionEntry)] = []
        var ordinals: [String: Int] = [:]
        for document in policy.documents {
            guard let root = YAMLComposer.compose(document.file).root, root.mapping != nil else { continue }
            for section in Sections.all {
                guard let node = SectionEntry.member(section.key, of: root) else { continue }
                for var entry in section.diffEntries(node, in: document.file, policy: policy) {
                    if let base = entry.key {
                        let ordinal = section.key + "\u{1}" + entry.kind + "\u{1}" + base
                        let seen = ordinals[ordinal, default: 0] + 1
                        ordinals[ordinal] = seen
                        if seen > 1 { entry.key = base + "#\(seen)" }
                    }
                    entries.append((section.key, entry))
                }
            }
        }
        return entries
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

    /// Pairs one kind of a section's entries by key (an id, a host, a scheme…; the nth of a key with the
    /// nth), then entries without one by identical content, then what is left of them in order
    /// when they share an action; the rest are removed and added.
    private static func compare(_ before: [SectionEntry], _ after: [SectionEntry], kind: String) -> [Difference] {
        var pairs: [(old: Int, new: Int)] = []
        var unmatchedOld = Set(before.indices), unmatchedNew = Set(after.indices)
        func pair(where matches: (SectionEntry, SectionEntry) -> Bool) {
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
            differences.append(Difference(action: .removed, kind: kind, name: before[old].name, oldLocation: before[old].location,
                                          fields: before[old].isSetting ? Self.fieldChanges(before[old].fields, []) : []))
        }
        for new in after.indices {
            if unmatchedNew.contains(new) {
                differences.append(Difference(action: .added, kind: kind, name: after[new].name, newLocation: after[new].location,
                                              fields: after[new].isSetting ? Self.fieldChanges([], after[new].fields) : []))
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
