import WebPolicyRuntime

/// `content-rules:` entries: the rule, its trigger, its action's parameters (WebKit's keys,
/// checked as WebKit's parser checks them where a structure is concerned).
extension PolicyDecoder {
    mutating func decodeContentRule(_ node: YAMLNode) -> ContentRule? {
        guard let fields = reader.fields(of: node, context: "a content rule", allowed: PolicyKeys.contentRule) else { return nil }
        let id = reader.string("id", in: fields)
        let description = reader.string("description", in: fields)
        let action = reader.choice("action", in: fields, as: ContentActionType.self)
        if !fields.has("action") {
            reader.requireKey("action", in: fields, hint: "one of \(Suggestions.list(ContentActionType.allCases.map(\.rawValue)))")
        }
        let trigger = decodeTrigger(fields)
        let selector = reader.string("selector", in: fields)
        let notification = reader.string("notification", in: fields)
        let redirect = fields.value("redirect").flatMap { decodeRedirect($0) }
        let priority = reader.integer("priority", in: fields, minimum: 0, maximum: Int(Int32.max))  // WebKit reads an `int`
        let requestHeaders = reader.list("request-headers", in: fields) { reader, item in Self.decodeHeaderOperation(item, reader: &reader) }
        let responseHeaders = reader.list("response-headers", in: fields) { reader, item in Self.decodeHeaderOperation(item, reader: &reader) }
        guard let action else { return nil }
        checkActionParameters(fields, action: action)
        return ContentRule(
            location: reader.location(node), id: id, description: description, action: action, trigger: trigger,
            selector: selector, notification: notification, redirect: redirect, priority: priority,
            requestHeaders: requestHeaders, responseHeaders: responseHeaders
        )
    }

    /// Each action parameter belongs to one action, and some actions need theirs
    /// (WebKit: `JSONInvalidCSSDisplayNoneActionType`, `JSONInvalidNotification`,
    /// `JSONRedirectMissing`, `JSONModifyHeadersInvalidPriority`).
    private mutating func checkActionParameters(_ fields: Fields, action: Located<ContentActionType>) {
        for (key, owner) in PolicyKeys.actionParameters where fields.has(key) && owner != action.value {
            reader.error(.conflictingKeys, "'\(key)' belongs to the \(owner.rawValue) action, but this rule's action is '\(action.value.rawValue)'",
                         at: fields.keyRange(key)!, notes: [Diagnostic.Note("the action is set here", at: action.location)])
        }
        let required: String?
        switch action.value {
        case .cssDisplayNone: required = "selector"
        case .notify: required = "notification"
        case .redirect: required = "redirect"
        case .modifyHeaders: required = "priority"
        default: required = nil
        }
        if let key = required, !fields.has(key) {
            reader.error(.missingKey, "a \(action.value.rawValue) rule is missing the required key '\(key)'", at: action.location.range)
        }
    }

    private mutating func decodeTrigger(_ fields: Fields) -> Trigger {
        var trigger = Trigger()
        reader.exclusive(["url-filter", "hosts"], in: fields, required: true)
        trigger.urlFilter = reader.string("url-filter", in: fields)
        trigger.hosts = reader.stringList("hosts", in: fields)
        trigger.urlFilterIsCaseSensitive = reader.bool("url-filter-is-case-sensitive", in: fields)
        trigger.topURLFilterIsCaseSensitive = reader.bool("top-url-filter-is-case-sensitive", in: fields)
        trigger.frameURLFilterIsCaseSensitive = reader.bool("frame-url-filter-is-case-sensitive", in: fields)
        trigger.resourceTypes = reader.choiceList("resource-type", in: fields, as: ResourceType.self)
        trigger.loadTypes = reader.choiceList("load-type", in: fields, as: LoadType.self)
        trigger.loadContexts = reader.choiceList("load-context", in: fields, as: LoadContext.self)
        if let node = fields.value("request-method") {
            // WebKit takes a single string; a list is webpolicy sugar for one rule per method.
            if node.sequence != nil {
                trigger.requestMethods = reader.choiceList("request-method", in: fields, as: RequestMethod.self, caseInsensitive: true)
            } else if let method = reader.choice("request-method", in: fields, as: RequestMethod.self, caseInsensitive: true) {
                trigger.requestMethods = Located([method], at: method.location)
            }
        }
        // Sugar lists expand to one rule per entry: empty, the rule would vanish from the list.
        for (key, list) in [("hosts", trigger.hosts?.value.count), ("request-method", trigger.requestMethods?.value.count)] where list == 0 {
            if let node = fields.value(key) {
                reader.error(.invalidValue, "'\(key)' is an empty list, so the rule would compile to nothing", at: node.range,
                             hint: key == "hosts" ? "list at least one host, or use url-filter" : "list at least one method, or remove the key to match every method")
            }
        }
        for kind in ConditionKind.allCases {
            guard let key = fields.keyRange(kind.rawValue), let values = reader.stringList(kind.rawValue, in: fields) else { continue }
            trigger.conditions.append(Condition(kind: kind, values: values.value, location: reader.location(key.union(values.location.range)), listLocation: values.location))
        }
        trigger.conditions.sort { $0.location.range.start < $1.location.range.start }
        return trigger
    }

    private mutating func decodeRedirect(_ node: YAMLNode) -> Redirect? {
        guard let fields = reader.fields(of: node, context: "the redirect", allowed: PolicyKeys.redirect) else { return nil }
        reader.exclusive(PolicyKeys.redirect, in: fields, required: true)
        if let url = reader.string("url", in: fields) { return .url(url) }
        if let path = reader.string("extension-path", in: fields) { return .extensionPath(path) }
        if let substitution = reader.string("regex-substitution", in: fields) { return .regexSubstitution(substitution) }
        if let transform = fields.value("transform") { return decodeURLTransform(transform).map(Redirect.transform) }
        return nil
    }

    private mutating func decodeURLTransform(_ node: YAMLNode) -> URLTransform? {
        guard let fields = reader.fields(of: node, context: "the URL transform", allowed: PolicyKeys.urlTransform) else { return nil }
        var transform = URLTransform(location: reader.location(node))
        transform.scheme = reader.string("scheme", in: fields)
        transform.host = reader.string("host", in: fields)
        transform.port = reader.string("port", in: fields)
        transform.path = reader.string("path", in: fields)
        transform.query = reader.string("query", in: fields)
        transform.fragment = reader.string("fragment", in: fields)
        transform.username = reader.string("username", in: fields)
        transform.password = reader.string("password", in: fields)
        if let queryNode = fields.value("query-transform"),
           let queryFields = reader.fields(of: queryNode, context: "the query transform", allowed: PolicyKeys.queryTransform) {
            var query = QueryTransform(location: reader.location(queryNode))
            query.removeParameters = reader.stringList("remove-parameters", in: queryFields)
            query.addOrReplaceParameters = reader.list("add-or-replace-parameters", in: queryFields) { reader, item in
                guard let parameter = reader.fields(of: item, context: "an add-or-replace parameter", allowed: PolicyKeys.queryParameter) else { return nil }
                let key = reader.string("key", in: parameter, required: true)
                let value = reader.string("value", in: parameter, required: true)
                let replaceOnly = reader.bool("replace-only", in: parameter)
                guard let key, let value else { return nil }
                return QueryParameter(location: reader.location(item), key: key, value: value, replaceOnly: replaceOnly)
            }
            transform.queryTransform = query
        }
        return transform
    }

    private static func decodeHeaderOperation(_ node: YAMLNode, reader: inout NodeReader) -> HeaderOperation? {
        guard let fields = reader.fields(of: node, context: "a header operation", allowed: PolicyKeys.headerOperation) else { return nil }
        let operation = reader.choice("operation", in: fields, as: HeaderOperationType.self)
        if !fields.has("operation") { reader.requireKey("operation", in: fields, hint: "one of set, append, remove") }
        let header = reader.string("header", in: fields, required: true)
        let value = reader.string("value", in: fields)
        guard let operation, let header else { return nil }
        if operation.value != .remove && value == nil {
            reader.error(.missingKey, "a '\(operation.value.rawValue)' header operation is missing the required key 'value'", at: operation.location.range)
        }
        return HeaderOperation(location: reader.location(node), operation: operation, header: header, value: value)
    }
}
