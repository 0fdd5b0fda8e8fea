import WebPolicyRuntime

extension Policy {
    /// Every `redirect` action's URL and transform, for the rules that mirror WebKit's
    /// `RedirectAction::parse` and `URLTransformAction::parse` errors.
    var redirectURLs: [LocatedString] {
        contentRules.compactMap { if case .url(let url)? = $0.redirect { return url } else { return nil } }
    }

    var redirectExtensionPaths: [LocatedString] {
        contentRules.compactMap { if case .extensionPath(let path)? = $0.redirect { return path } else { return nil } }
    }

    var redirectTransforms: [URLTransform] {
        contentRules.compactMap { if case .transform(let transform)? = $0.redirect { return transform } else { return nil } }
    }
}

/// The shared rationale of the redirect rules.
let redirectRationaleSuffix = """
WebKit parses a redirect when it compiles the list, so one malformed redirect makes \
`WKContentRuleListStore` refuse the whole list. (Redirects then apply only when the app opts in \
through WebKit's private `_activeContentRuleListActionPatterns`.)
"""
