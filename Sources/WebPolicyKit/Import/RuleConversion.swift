import WebPolicyRuntime

/// Converts the rules of a list that WebKit's parser accepted into policy `content-rules`
/// entries: the same keys WebKit reads, in the policy's order (`action` first), and nothing
/// WebKit ignores. Tracks the lowest iOS whose WebKit has every feature used.
///
/// An entry is a YAML node whose every key and value keeps its range in the list: `import`
/// writes it out as YAML, and `lint LIST.json` decodes it as a policy's rule in place, so each
/// finding lands on the list's own characters without a policy text in between.
struct RuleConversion {
    let file: SourceFile
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var requiredTarget = OSVersion.defaultTarget
    /// "rule N: ", for messages about the rule being converted.
    private var rulePrefix = ""

    init(file: SourceFile) {
        self.file = file
    }

    mutating func convert(_ rule: JSONNode, index: Int) -> YAMLNode {
        rulePrefix = "rule \(index + 1): "
        warnAboutDuplicateKeys(in: rule)
        let trigger = rule.member("trigger")!
        let action = rule.member("action")!
        let typeMember = Self.member(action, "type")!
        let type = typeMember.value.string!
        // The policy's `action` is the list's `action.type`: a finding on it lands there.
        var members: [YAMLPair] = [Self.pair("action", typeMember.keyRange, Self.string(typeMember.value))]
        if let actionType = ContentActionType(rawValue: type), let feature = WebKitFeature.action(actionType) { require(feature) }

        for key in WebKitRuleListParser.triggerKeys {
            guard let member = Self.member(trigger, key) else { continue }
            let value = member.value
            func add(_ node: YAMLNode) { members.append(Self.pair(key, member.keyRange, node)) }
            // A case-sensitivity flag that is not a boolean is ignored by WebKit and left out
            // of the policy: it decides nothing, the target included.
            if key.hasSuffix("-is-case-sensitive"), value.bool == nil { continue }
            if let feature = WebKitFeature.triggerKey(key) { require(feature) }
            switch key {
            case "url-filter":
                add(Self.string(value))
            case "url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive", "frame-url-filter-is-case-sensitive":
                // Only a boolean gets here: the parser has warned about anything else.
                if let flag = value.bool { add(Self.plain(flag ? "true" : "false", value.range)) }
            case "request-method":
                // WebKit compares methods ignoring case; compile writes them in lowercase.
                add(Self.string(value, value.string!.lowercased()))
            case "resource-type":
                let types = value.array!
                for type in types { if let resourceType = ResourceType(rawValue: type.string!), let feature = WebKitFeature.resourceType(resourceType) { require(feature) } }
                add(Self.strings(value))
            default:
                add(Self.strings(value))
            }
        }

        switch type {
        case "css-display-none": members.append(Self.actionPair(action, "selector"))
        case "notify": members.append(Self.actionPair(action, "notification"))
        case "redirect":
            let member = Self.member(action, "redirect")!
            members.append(Self.pair("redirect", member.keyRange, redirect(member.value)))
        case "modify-headers": members += modifyHeaders(action)
        default: break
        }
        return YAMLNode(content: .mapping(members), range: rule.range)
    }

    // MARK: The list's values as YAML nodes at their places in the list

    /// The member named `key`; with duplicates the last, as WebKit keeps it.
    private static func member(_ node: JSONNode, _ key: String) -> JSONMember? {
        node.members?.last { $0.key == key }
    }

    private static func pair(_ key: String, _ keyRange: SourceRange, _ value: YAMLNode) -> YAMLPair {
        YAMLPair(key: plain(key, keyRange), value: value)
    }

    /// A JSON string is a double-quoted YAML scalar: the same escapes, so an offset inside the
    /// value maps to the list's characters.
    private static func string(_ node: JSONNode, _ value: String? = nil) -> YAMLNode {
        YAMLNode(content: .scalar(YAMLScalar(value: value ?? node.string!, style: .doubleQuoted)), range: node.range)
    }

    private static func plain(_ text: String, _ range: SourceRange) -> YAMLNode {
        YAMLNode(content: .scalar(YAMLScalar(value: text, style: .plain)), range: range)
    }

    private static func strings(_ node: JSONNode) -> YAMLNode {
        YAMLNode(content: .sequence(node.array!.map { string($0) }), range: node.range)
    }

    private static func actionPair(_ action: JSONNode, _ key: String) -> YAMLPair {
        let member = member(action, key)!
        return pair(key, member.keyRange, string(member.value))
    }

    /// JSON objects keep the last of repeated keys (WebKit's `JSON::Object`); the earlier
    /// ones are lost, which is rarely what the list's author meant.
    private mutating func warnAboutDuplicateKeys(in node: JSONNode) {
        switch node.value {
        case .object(let members):
            var seen = Set<String>()
            for member in members.reversed() where !seen.insert(member.key).inserted {
                leftOut(member, "a later '\(member.key)' in the same object replaces this one, as WebKit keeps the last")
            }
            for member in members { warnAboutDuplicateKeys(in: member.value) }
        case .array(let items):
            for item in items { warnAboutDuplicateKeys(in: item) }
        default:
            break
        }
    }

    private mutating func require(_ feature: WebKitFeature) {
        requiredTarget = max(requiredTarget, feature.minimumIOS)
    }

    private mutating func leftOut(_ member: JSONMember, _ why: String) {
        diagnostics.append(Diagnostic(ruleID: ImportCheck.ignoredMember.id, severity: .warning,
                                      message: "\(rulePrefix)\(why); the policy leaves '\(member.key)' out", location: file.location(member.keyRange)))
    }

    /// The one member WebKit's `RedirectAction::parse` uses, in its order of preference.
    private mutating func redirect(_ redirect: JSONNode) -> YAMLNode {
        var chosen: String?
        for key in ["extension-path", "regex-substitution", "transform", "url"] {
            guard let value = redirect.member(key) else { continue }
            let usable = key == "transform" ? value.members != nil : value.string != nil
            if usable { chosen = key; break }
        }
        for member in redirect.members! where member.key != chosen {
            leftOut(member, "WebKit reads only '\(chosen!)' of this redirect")
        }
        let member = Self.member(redirect, chosen!)!
        let value = chosen == "transform" ? transform(member.value) : Self.string(member.value)
        return YAMLNode(content: .mapping([Self.pair(chosen!, member.keyRange, value)]), range: redirect.range)
    }

    // `URLTransformAction::parse` reads string members, and `query-transform` before `query`.
    private mutating func transform(_ transform: JSONNode) -> YAMLNode {
        var members: [YAMLPair] = []
        let queryTransform = transform.member("query-transform").flatMap { $0.members != nil ? $0 : nil }
        for member in transform.members! {
            let key = member.key
            guard transform.member(key).map({ $0.range == member.value.range }) ?? false else { continue }  // a duplicate WebKit overrides
            switch key {
            case "query-transform" where queryTransform != nil:
                members.append(Self.pair(key, member.keyRange, self.queryTransform(member.value)))
            case "query" where queryTransform != nil:
                leftOut(member, "WebKit uses 'query-transform' instead of 'query'")
            case _ where PolicyKeys.urlTransform.contains(key) && key != "query-transform" && member.value.string != nil:
                members.append(Self.pair(key, member.keyRange, Self.string(member.value)))
            default:
                leftOut(member, PolicyKeys.urlTransform.contains(key) ? "WebKit ignores a '\(key)' that is \(member.value.kindName)" : "WebKit ignores the transform key '\(key)'")
            }
        }
        let order = { (pair: YAMLPair) in PolicyKeys.urlTransform.firstIndex(of: pair.key.scalar!.value)! }
        return YAMLNode(content: .mapping(members.sorted { order($0) < order($1) }), range: transform.range)
    }

    private mutating func queryTransform(_ node: JSONNode) -> YAMLNode {
        var members: [YAMLPair] = []
        for member in node.members! where !PolicyKeys.queryTransform.contains(member.key) {
            leftOut(member, "WebKit ignores the query-transform key '\(member.key)'")
        }
        if let remove = Self.member(node, "remove-parameters") {
            members.append(Self.pair("remove-parameters", remove.keyRange, Self.strings(remove.value)))
        }
        if let add = Self.member(node, "add-or-replace-parameters") {
            members.append(Self.pair("add-or-replace-parameters", add.keyRange, YAMLNode(content: .sequence(add.value.array!.map { parameter in
                var fields = [Self.actionPair(parameter, "key"), Self.actionPair(parameter, "value")]
                if let replaceOnlyMember = Self.member(parameter, "replace-only") {
                    let replaceOnly = replaceOnlyMember.value
                    if let flag = replaceOnly.bool { fields.append(Self.pair("replace-only", replaceOnlyMember.keyRange, Self.plain(flag ? "true" : "false", replaceOnly.range))) } else {
                        diagnostics.append(Diagnostic(ruleID: ImportCheck.ignoredMember.id, severity: .warning,
                                                      message: "\(rulePrefix)WebKit ignores a 'replace-only' that is \(replaceOnly.kindName); the policy leaves it out",
                                                      location: file.location(replaceOnly.range)))
                    }
                }
                return YAMLNode(content: .mapping(fields), range: parameter.range)
            }), range: add.value.range)))
        }
        return YAMLNode(content: .mapping(members), range: node.range)
    }

    private mutating func modifyHeaders(_ action: JSONNode) -> [YAMLPair] {
        let priorityMember = Self.member(action, "priority")!
        let priority = priorityMember.value
        let number = priority.number!
        if number != number.rounded(.towardZero) {
            diagnostics.append(Diagnostic(ruleID: ImportCheck.ignoredMember.id, severity: .warning,
                                          message: "\(rulePrefix)WebKit truncates the priority \(number) to \(Int(number)); the policy says \(Int(number))",
                                          location: file.location(priority.range)))
        }
        var members = [Self.pair("priority", priorityMember.keyRange, Self.plain(String(Int(number)), priority.range))]
        for key in ["request-headers", "response-headers"] {
            guard let member = Self.member(action, key), let headers = member.value.array else { continue }
            members.append(Self.pair(key, member.keyRange, YAMLNode(content: .sequence(headers.map { header in
                var fields = [Self.actionPair(header, "operation"), Self.actionPair(header, "header")]
                if let value = Self.member(header, "value"), value.value.string != nil { fields.append(Self.pair("value", value.keyRange, Self.string(value.value))) }
                return YAMLNode(content: .mapping(fields), range: header.range)
            }), range: member.value.range)))
        }
        return members
    }
}
