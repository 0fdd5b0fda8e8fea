import WebPolicyRuntime

struct WebKitFeatureUnavailableRule: LintRule {
    static let description = RuleDescription(
        id: "webkit-feature-unavailable",
        name: "WebKit Feature Unavailable",
        category: .targets,
        defaultSeverity: .error,
        summary: "A content-rule feature must exist in the WebKit of the policy's oldest iOS (`target.ios`).",
        rationale: """
        Content-blocker features arrived over the years: `load-context`, `fetch`, `websocket` and \
        `other` with iOS 15, `if-frame-url` with 18, `request-method`, `unless-frame-url`, \
        `top-document`, `child-document` and `ignore-following-rules` with 26 (see \
        docs/decisions.md for the table and its evidence). An older WebKit either ignores an \
        unknown trigger key — and the rule then applies more widely than written — or refuses \
        an unknown resource type or action type, and with it the whole list. The message names \
        the version that added the feature and what older ones do.
        """,
        failing: [
            Example("""
            target: { ios: "16.0" }
            content-rules:
              - action: block
                url-filter: ads
                request-method: ↓post
            """),
            Example("""
            target: { ios: "14.0" }
            content-rules:
              - action: block
                url-filter: ads
                resource-type: [script, ↓fetch]
            """),
            Example("""
            target: { ios: "17.0" }
            content-rules:
              - action: ↓ignore-following-rules
                url-filter: '^https://partner\\.example\\.com/'
            """),
        ],
        passing: [
            Example("""
            target: { ios: "26.0" }
            content-rules:
              - action: block
                url-filter: ads
                request-method: post
                resource-type: [fetch, top-document]
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        let target = policy.targetVersion
        func require(_ feature: WebKitFeature, at location: SourceLocation, olderSpelling: String? = nil) {
            guard target < feature.minimumIOS else { return }
            let consequence: String
            var notes: [Diagnostic.Note] = []
            switch feature.onOlderWebKit {
            case .ignored(let meaning): consequence = "older WebKit ignores it, so \(meaning)"
            case .rejects(let error):
                consequence = "older WebKit refuses the whole rule list"
                notes.append(.webKitRefuses(error))
            }
            context.report("\(feature.name) needs iOS \(feature.minimumIOS) or later (\(feature.history)), but the policy targets iOS \(target)",
                           at: location, hint: "\(consequence); " + (olderSpelling.map { "before iOS \(feature.minimumIOS), write \($0)" } ?? "raise target.ios or do without it"),
                           notes: notes)
        }
        for rule in policy.contentRules {
            let trigger = rule.trigger
            if let action = WebKitFeature.action(rule.action.value) { require(action, at: rule.action.location) }
            if let contexts = trigger.loadContexts { require(.loadContext, at: contexts.location) }
            if let methods = trigger.requestMethods { require(.requestMethod, at: methods.location) }
            if let frameCase = trigger.frameURLFilterIsCaseSensitive { require(.frameURLCase, at: frameCase.location) }
            for condition in trigger.conditions {
                if condition.kind == .ifFrameURL { require(.ifFrameURL, at: condition.location) }
                if condition.kind == .unlessFrameURL { require(.unlessFrameURL, at: condition.location) }
            }
            for type in trigger.resourceTypes?.value ?? [] {
                guard let feature = WebKitFeature.resourceType(type.value) else { continue }
                // WebKit before 26 has one `document` type; the frame tells the two apart.
                let older: String? = switch type.value {
                case .childDocument: "'resource-type: [document]' with 'load-context: [child-frame]'"
                case .topDocument: "'resource-type: [document]' with 'load-context: [top-frame]'"
                default: nil
                }
                require(feature, at: type.location, olderSpelling: older)
            }
        }
    }
}
