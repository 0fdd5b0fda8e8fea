import URLFilter
import WebPolicyRuntime

struct URLFilterMatchesEverythingRule: URLFilterStatusRule {
    static let status = URLFilterParseStatus.matchesEverything

    static let description = RuleDescription(
        id: "url-filter-matches-everything",
        name: "URL Filter Matches Everything",
        category: .urlFilters,
        defaultSeverity: .warning,
        summary: "A url-filter that matches every URL, on a rule that blocks, strips cookies or upgrades every load of the web view.",
        rationale: """
        A pattern whose every term is optional (`.*`, `a*`, `(foo)?`) matches every URL; \
        WebKit's parser classifies it as `MatchesEverything` and compiles the rule into a \
        "universal" action attached to every load, evaluated before any url-filter. On a \
        `block`, `block-cookies` or `make-https` rule with nothing else in its trigger — no \
        `if-domain`/`unless-domain`, `*-top-url`, `*-frame-url`, `resource-type`, `load-type`, \
        `load-context` or `request-method` — that is every load the web view makes: every page \
        blocked, every cookie stripped, every http host of the allowlist upgraded away. \
        That is rarely what was meant. For `make-https` write `^http:` (make-https only \
        upgrades http and ws anyway), for the others narrow the trigger. \
        A scoped rule is how such rules are written — `url-filter: ".*"` with `if-domain` is \
        the canonical form of a cosmetic rule in EasyList and of a site's cookie-banner rule — \
        and `css-display-none`, `notify` and the ignore rules change nothing a load does, so \
        neither is reported. A condition entry that matches everything makes `if-top-url` \
        always true and `unless-top-url` never true, and is always reported.
        """,
        failing: [
            Example("""
            content-rules:
              - action: block
                url-filter: ↓"(ads)?"
            """),
            Example("""
            content-rules:
              - action: block-cookies
                url-filter: ↓".*"
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: tracker
                unless-top-url: [↓".*"]
            """),
        ],
        passing: [
            Example("""
            content-rules:
              - action: make-https
                url-filter: "^http:"
            """),
            Example("""
            content-rules:
              - action: css-display-none
                selector: ".cookie-banner"
                url-filter: ".*"
                if-domain: ["*shop.example.com"]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ".*"
                if-domain: ["*phishing.example"]
            """),
            Example("""
            content-rules:
              - action: block
                url-filter: ".*"
                resource-type: [script]
                load-type: [third-party]
            """),
        ]
    )

    /// A condition entry always counts; a url-filter only where the rule acts on every load.
    static func reports(_ field: PolicyFacts.RegexField) -> Bool {
        guard field.field == "url-filter" else { return true }
        let rule = field.rule
        guard [.block, .blockCookies, .makeHTTPS].contains(rule.action.value) else { return false }
        let trigger = rule.trigger
        return trigger.conditions.isEmpty && trigger.resourceTypes == nil && trigger.loadTypes == nil
            && trigger.loadContexts == nil && trigger.requestMethods == nil
    }

    static func explain(field: String, pattern: String, offending: String, problem: URLFilterProblem?) -> (message: String, hint: String?) {
        if field == "url-filter" {
            return ("the url-filter '\(pattern)' matches every URL, and nothing else in the trigger narrows it: the rule acts on every load of the web view",
                    "narrow the trigger (if-domain, resource-type, load-type), or for make-https write '^http:'")
        }
        let effect = field.hasPrefix("if-") ? "always true" : "never true"
        return ("the \(field) entry '\(pattern)' matches every URL, so the condition is \(effect)", "remove the condition or narrow the pattern")
    }
}
