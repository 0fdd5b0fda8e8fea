import WebPolicyRuntime

/// What `webpolicy import` reports about a content-blocker list.
public enum ImportCheck: String, DocumentedCheck {
    case jsonSyntax = "import-json-syntax"
    case webKitError = "import-webkit-error"
    case ignoredMember = "import-ignored-member"
    case skippedRule = "import-skipped-rule"


    public var severity: Severity {
        switch self {
        case .jsonSyntax, .webKitError: return .error
        case .ignoredMember, .skippedRule: return .warning
        }
    }

    public var summary: String {
        switch self {
        case .jsonSyntax: return "The list is not valid JSON (WebKit: `JSONInvalid`); nothing is imported (error)."
        case .webKitError: return "WebKit would refuse the list, naming this error; every failing rule is reported, and nothing is imported (error)."
        case .ignoredMember: return "WebKit ignores this key or value (an unknown key, a flag that is not a boolean), so the policy leaves it out (warning)."
        case .skippedRule: return "WebKit drops this rule without an error (a css-display-none selector that does not parse), so the policy leaves it out (warning)."
        }
    }
}
