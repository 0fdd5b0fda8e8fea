import WebPolicyRuntime

/// Converts the rules of a list that WebKit's parser accepted into policy `content-rules`
/// entries: the same keys WebKit reads, in the policy's order (`action` first), and nothing
/// WebKit ignores. Tracks the lowest iOS whose WebKit has every feature used.
struct RuleConversion {
    let file: SourceFile
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var requiredTarget = OSVersion.defaultTarget
    /// "rule N: ", for messages about the rule being converted.
    private var rulePrefix = ""

    init(file: SourceFile) {
        self.file = file
    }

    mutating func convert(_ rule: JSONNode, index: Int) -> JSONValue {
        rulePrefix = "rule \(index + 1): "
        warnAboutDuplicateKeys(in: rule)
        let trigger = rule.member("trigger")!
        let action = rule.member("action")!
        let type = action.member("type")!.string!
        var members: [(String, JSONValue)] = [("action", .string(type))]
        if let actionType = ContentActionType(rawValue: type), let feature = WebKitFeature.action(actionType) { require(feature) }

        for key in WebKitRuleListParser.triggerKeys {
            guard let value = trigger.member(key) else { continue }
            // A case-sensitivity flag that is not a boolean is ignored by WebKit and left out
            // of the policy: it decides nothing, the target included.
            if key.hasSuffix("-is-case-sensitive"), value.bool == nil { continue }
            if let feature = WebKitFeature.triggerKey(key) { require(feature) }
            switch key {
            case "url-filter":
                members.append((key, .string(value.string!)))
            case "url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive", "frame-url-filter-is-case-sensitive":
                // Only a boolean gets here: the parser has warned about anything else.
                if let flag = value.bool { members.append((key, .bool(flag))) }
            case "request-method":
                // WebKit compares methods ignoring case; compile writes them in lowercase.
                members.append((key, .string(value.string!.lowercased())))
            case "resource-type":
                let types = value.array!.map { $0.string! }
                for type in types { if let resourceType = ResourceType(rawValue: type), let feature = WebKitFeature.resourceType(resourceType) { require(feature) } }
                members.append((key, .array(types.map(JSONValue.string))))
            default:
                members.append((key, .array(value.array!.map { .string($0.string!) })))
            }
        }

        switch type {
        case "css-display-none": members.append(("selector", .string(action.member("selector")!.string!)))
        case "notify": members.append(("notification", .string(action.member("notification")!.string!)))
        case "redirect": members.append(("redirect", redirect(action.member("redirect")!)))
        case "modify-headers": members += modifyHeaders(action)
        default: break
        }
        return .object(members)
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
    private mutating func redirect(_ redirect: JSONNode) -> JSONValue {
        var chosen: String?
        for key in ["extension-path", "regex-substitution", "transform", "url"] {
            guard let value = redirect.member(key) else { continue }
            let usable = key == "transform" ? value.members != nil : value.string != nil
            if usable { chosen = key; break }
        }
        for member in redirect.members! where member.key != chosen {
            leftOut(member, "WebKit reads only '\(chosen!)' of this redirect")
        }
        let value = redirect.member(chosen!)!
        if chosen == "transform" { return .object([("transform", transform(value))]) }
        return .object([(chosen!, .string(value.string!))])
    }

    // `URLTransformAction::parse` reads string members, and `query-transform` before `query`.
    private mutating func transform(_ transform: JSONNode) -> JSONValue {
        var members: [(String, JSONValue)] = []
        let queryTransform = transform.member("query-transform").flatMap { $0.members != nil ? $0 : nil }
        for member in transform.members! {
            let key = member.key
            guard transform.member(key).map({ $0.range == member.value.range }) ?? false else { continue }  // a duplicate WebKit overrides
            switch key {
            case "query-transform" where queryTransform != nil:
                members.append((key, self.queryTransform(member.value)))
            case "query" where queryTransform != nil:
                leftOut(member, "WebKit uses 'query-transform' instead of 'query'")
            case _ where PolicyKeys.urlTransform.contains(key) && key != "query-transform" && member.value.string != nil:
                members.append((key, .string(member.value.string!)))
            default:
                leftOut(member, PolicyKeys.urlTransform.contains(key) ? "WebKit ignores a '\(key)' that is \(member.value.kindName)" : "WebKit ignores the transform key '\(key)'")
            }
        }
        return .object(members.sorted { PolicyKeys.urlTransform.firstIndex(of: $0.0)! < PolicyKeys.urlTransform.firstIndex(of: $1.0)! })
    }

    private mutating func queryTransform(_ node: JSONNode) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for member in node.members! where !PolicyKeys.queryTransform.contains(member.key) {
            leftOut(member, "WebKit ignores the query-transform key '\(member.key)'")
        }
        if let remove = node.member("remove-parameters") {
            members.append(("remove-parameters", .array(remove.array!.map { .string($0.string!) })))
        }
        if let add = node.member("add-or-replace-parameters") {
            members.append(("add-or-replace-parameters", .array(add.array!.map { parameter in
                var fields: [(String, JSONValue)] = [("key", .string(parameter.member("key")!.string!)), ("value", .string(parameter.member("value")!.string!))]
                if let replaceOnly = parameter.member("replace-only") {
                    if let flag = replaceOnly.bool { fields.append(("replace-only", .bool(flag))) } else {
                        diagnostics.append(Diagnostic(ruleID: ImportCheck.ignoredMember.id, severity: .warning,
                                                      message: "\(rulePrefix)WebKit ignores a 'replace-only' that is \(replaceOnly.kindName); the policy leaves it out",
                                                      location: file.location(replaceOnly.range)))
                    }
                }
                return .object(fields)
            })))
        }
        return .object(members)
    }

    private mutating func modifyHeaders(_ action: JSONNode) -> [(String, JSONValue)] {
        let priority = action.member("priority")!
        let number = priority.number!
        if number != number.rounded(.towardZero) {
            diagnostics.append(Diagnostic(ruleID: ImportCheck.ignoredMember.id, severity: .warning,
                                          message: "\(rulePrefix)WebKit truncates the priority \(number) to \(Int(number)); the policy says \(Int(number))",
                                          location: file.location(priority.range)))
        }
        var members: [(String, JSONValue)] = [("priority", .int(Int(number)))]
        for key in ["request-headers", "response-headers"] {
            guard let headers = action.member(key)?.array else { continue }
            members.append((key, .array(headers.map { header in
                var fields: [(String, JSONValue)] = [("operation", .string(header.member("operation")!.string!)), ("header", .string(header.member("header")!.string!))]
                if let value = header.member("value")?.string { fields.append(("value", .string(value))) }
                return .object(fields)
            })))
        }
        return members
    }
}
