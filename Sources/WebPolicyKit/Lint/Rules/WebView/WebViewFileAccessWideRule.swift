import WebPolicyRuntime

/// OWASP MASTG-TEST-0077: `loadFileURL(_:allowingReadAccessTo:)` with a directory exposes
/// every file in it.
struct WebViewFileAccessWideRule: LintRule {
    static let description = RuleDescription(
        id: "webview-file-access-wide",
        name: "File Access Wider than What the View Serves",
        category: .webView,
        defaultSeverity: .warning,
        summary: "`file-access` names the whole bundle, or a folder above the ones the interception rules serve.",
        rationale: """
        `loadFileURL(_:allowingReadAccessTo:)` lets the page read every file under the folder \
        it names (OWASP MASTG-TEST-0077, "Testing WebView Protocol Handlers"): a page of the \
        app's offline package can then `fetch` any other file there — other packages, \
        configuration, whatever the app bundles. Name the folder the pages need and nothing \
        above it: the folder an interception rule serves, or a folder of its own. The whole \
        bundle (`.`) is never needed.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0069"], mastg: ["MASTG-TEST-0077"], cwe: ["CWE-552"]),
        failing: [
            Example("""
            interception:
              - scheme: shop-offline
                serve: Offline/shop
            webview:
              file-access: ↓Offline
            """),
        ],
        passing: [
            Example("""
            interception:
              - scheme: shop-offline
                serve: Offline/shop
            webview:
              file-access: Offline/shop
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        guard let access = policy.webView?.fileAccess, let folder = policy.webView?.fileAccessFolder else { return }
        let normalized = Self.normalized(folder)
        if normalized.isEmpty {
            context.report("file-access opens the whole app bundle to the view's pages: any file the app ships can be read",
                           at: access.location, hint: "name the folder the pages need, such as the one an interception rule serves")
            return
        }
        let served = policy.interception.compactMap { $0.serve.map { Self.normalized($0.value) } }
        guard let inside = served.first(where: { $0 != normalized && $0.hasPrefix(normalized + "/") }) else { return }
        context.report("file-access opens \(folder), above the \(inside) the interception rules serve: pages can read every other file under it",
                       at: access.location, hint: "name \(inside)")
    }

    /// Without `./`, a trailing `/` or `.` segments.
    static func normalized(_ folder: String) -> String {
        folder.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
