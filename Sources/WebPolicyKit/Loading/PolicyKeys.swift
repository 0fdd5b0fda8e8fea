import WebPolicyRuntime

/// The keys each part of a policy may contain, in documentation order. The loader rejects
/// anything else (suggesting the nearest key), and a test checks that
/// `schemas/webpolicy.schema.json` declares exactly these.
public enum PolicyKeys {
    public static let topLevel = Sections.headerKeys + Sections.all.map { $0.key }
    /// Top-level keys with this prefix are ignored: a place for shared anchors (`x-trackers: &t`).
    public static let extensionPrefix = "x-"

    public static let target = ["ios", "distribution"]
    public static let httpAllowlistEntry = ["host", "include-subdomains", "reason"]
    public static let contentRuleListEntry = ["path", "id"]
    public static let schemeAllowlistEntry = ["scheme", "hosts", "paths", "reason"]

    public static let contentRuleMeta = ["id", "description", "action"]
    public static let trigger = [
        "url-filter", "hosts", "url-filter-is-case-sensitive", "top-url-filter-is-case-sensitive",
        "frame-url-filter-is-case-sensitive", "resource-type", "load-type", "load-context", "request-method",
    ] + ConditionKind.allCases.map(\.rawValue)
    /// Action parameters, each valid with one action only.
    public static let actionParameters: [(key: String, action: ContentActionType)] = [
        ("selector", .cssDisplayNone),
        ("notification", .notify),
        ("redirect", .redirect),
        ("priority", .modifyHeaders),
        ("request-headers", .modifyHeaders),
        ("response-headers", .modifyHeaders),
    ]
    public static let contentRule: [String] = contentRuleMeta + trigger + actionParameters.map(\.key)

    public static let redirect = ["url", "extension-path", "regex-substitution", "transform"]
    public static let urlTransform = ["scheme", "host", "port", "path", "query", "query-transform", "fragment", "username", "password"]
    public static let queryTransform = ["remove-parameters", "add-or-replace-parameters"]
    public static let queryParameter = ["key", "value", "replace-only"]
    public static let headerOperation = ["operation", "header", "value"]

    public static let cookie = [
        "name", "value", "domain", "host-only", "path", "secure", "http-only", "same-site",
        "expires", "max-age", "via", "description",
    ]
    public static let interceptionRule = ["id", "description", "scheme", "hosts", "paths", "methods", "serve", "handler"]
    public static let navigation = ["pages", "frames", "otherwise", "new-windows"]
    public static let navigationEntry = ["host", "scheme", "include-subdomains", "paths", "schemes", "reason"]
    public static let appBoundDomains = ["domains", "limit-navigations"]
    public static let bridge = ["name", "origins", "schemes", "frames", "world", "reply", "description"]
    public static let runtimeHost = ["description", "schemes", "http"]
    /// The on/off settings are `WebViewSettingCatalogue`'s rows.
    public static let webView = WebViewSettingCatalogue.booleans.map(\.key) + ["file-access", "data-detectors"]
        + WebViewSettingCatalogue.choices.map(\.key) + ["data-store", "web-extensions", "permissions"]
    public static let webViewPermissions = PermissionKind.allCases.map(\.rawValue)
}
