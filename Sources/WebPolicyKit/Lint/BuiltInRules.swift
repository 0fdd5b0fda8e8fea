import WebPolicyRuntime

/// Every rule webpolicy ships, by category. A test checks that each file under `Lint/Rules/`
/// is listed here exactly once and that ids are unique.
public enum BuiltInRules {
    public static let all: [any LintRule.Type] = [
        // Hosts
        HostSyntaxRule.self,
        HostUppercaseRule.self,
        HostNonASCIIRule.self,
        HostNotBareRule.self,
        HostWildcardPositionRule.self,
        HostTrailingDotRule.self,
        HostPublicSuffixWildcardRule.self,
        HostWildcardApexRule.self,
        HostIPLiteralRule.self,
        HostDuplicateRule.self,
        HTTPAllowlistReasonRule.self,
        // Schemes
        SchemeSyntaxRule.self,
        SchemeUppercaseRule.self,
        SchemeAllowlistDangerousRule.self,
        SchemeAllowlistWebRule.self,
        SchemeQueryLimitRule.self,
        SchemeHandlerBuiltinRule.self,
        SchemeHandlerConflictRule.self,
        SchemeNotNamespacedRule.self,
        SchemeDuplicateRule.self,
        // Cookies
        CookieNameTokenRule.self,
        CookieValueOctetsRule.self,
        CookiePathSyntaxRule.self,
        CookieSizeRule.self,
        CookiePrefixRule.self,
        CookieSameSiteNoneInsecureRule.self,
        CookieHTTPOnlyScriptRule.self,
        CookieViaHeaderRule.self,
        CookieDomainPublicSuffixRule.self,
        CookieDomainIPRule.self,
        CookieSecureOnHTTPHostRule.self,
        CookieCleartextToHTTPHostRule.self,
        CookieCredentialCleartextRule.self,
        CookieDuplicateRule.self,
        // Interception
        InterceptionWebSchemeRule.self,
        InterceptionRequestBodyRule.self,
        InterceptionOverlapRule.self,
        // URL filters: one rule per rejecting status of WebKit's URLFilterParser.
        URLFilterNonASCIIRule.self,
        URLFilterEmptyRule.self,
        URLFilterDisjunctionRule.self,
        URLFilterWordBoundaryRule.self,
        URLFilterCharacterClassRule.self,
        URLFilterClassInSetRule.self,
        URLFilterGroupRule.self,
        URLFilterBackReferenceRule.self,
        URLFilterMisplacedStartRule.self,
        URLFilterMisplacedEndRule.self,
        URLFilterQuantifierRule.self,
        URLFilterSyntaxRule.self,
        URLFilterMatchesEverythingRule.self,
        // Content rules: each WebKit parser error a policy can reach.
        ConditionListEmptyRule.self,
        ConditionDomainCaseRule.self,
        ConditionDomainRegexRule.self,
        TriggerMultipleConditionsRule.self,
        RedirectExtensionPathRule.self,
        RedirectURLRule.self,
        RedirectJavaScriptRule.self,
        RedirectSchemeRule.self,
        RedirectPortRule.self,
        RedirectQueryRule.self,
        RedirectFragmentRule.self,
        CSSSelectorSyntaxRule.self,
        ContentRuleDeadRule.self,
        ContentRuleBlockAndUpgradeRule.self,
        ContentRuleIDDuplicateRule.self,
        RequestMethodConditionRule.self,
        // Navigation and App-Bound Domains
        NavigationPagesEmptyRule.self,
        NavigationPageSchemeUnservedRule.self,
        NavigationEntryTooWideRule.self,
        NavigationEntryInsecureRule.self,
        NavigationHTTPNotAllowlistedRule.self,
        NavigationDeadConditionRule.self,
        NavigationWindowsReplacePageRule.self,
        NavigationFrameCookiesRule.self,
        AppBoundDomainsLimitRule.self,
        AppBoundEntryWidenedRule.self,
        AppBoundPageUnreachableRule.self,
        AppBoundSchemeUnboundRule.self,
        AppBoundCookiesDeniedRule.self,
        AppBoundDomainsIOSRule.self,
        // Bridges and the web view's configuration
        BridgeOriginAnyRule.self,
        BridgeOriginPublicSuffixRule.self,
        BridgeOriginInsecureRule.self,
        BridgeDuplicateNameRule.self,
        BridgeFramesThirdPartyRule.self,
        BridgeReplyAllFramesRule.self,
        BridgePageWorldThirdPartyRule.self,
        BridgeOriginUnreachableRule.self,
        BridgeSchemeUnservedRule.self,
        BridgeAppBoundDeniedRule.self,
        BridgeJavaScriptOffRule.self,
        WebViewInspectableReleaseRule.self,
        WebViewFileAccessWideRule.self,
        WebViewWindowsSameViewRule.self,
        WebViewLockdownConflictRule.self,
        WebViewKeyIOSRule.self,
        // Hosts named by role (runtime-hosts)
        RoleUndeclaredRule.self,
        RoleUnusedRule.self,
        RoleHTTPAnywhereRule.self,
        RoleAppBoundRule.self,
        RoleLocalNetworkBridgeRule.self,
        // Targets and limits
        WebKitFeatureUnavailableRule.self,
        ContentRuleLimitRule.self,
        ContentRuleSplitRule.self,
    ]

    public static let descriptions: [RuleDescription] = all.map { $0.description }

    /// Every rule id, the names a suppression may use.
    public static let ids: [String] = descriptions.map(\.id)

    /// The rule id nearest to a misspelled one.
    public static func closestID(to id: String) -> String? {
        Suggestions.closest(to: id, in: descriptions.map(\.id))
    }
}
