import WebPolicyKit
import WebPolicyRuntime

/// `loadHTMLString(_:baseURL:)` or `load(_:mimeType:characterEncodingName:baseURL:)` with a
/// `file:` base URL: WebKit assumes the page may read the base URL's folder.
struct HTMLFileBaseURLRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "html-file-base-url",
        name: "HTML Loaded with a File Base URL",
        category: .appCode,
        defaultSeverity: .error,
        summary: "HTML is loaded from a string or data with a `file:` base URL (the bundle, Documents, a temporary folder): the page may read every file in that folder, though `webview.file-access` says otherwise (a warning with no policy).",
        rationale: """
        `loadFileURL(_:allowingReadAccessTo:)` says what a page may read; the string and data \\
        loads say it too, less visibly: for a `file:` base URL WebKit's \\
        `WebProcessProxy::assumeReadAccessToBaseURL` grants the web process read access to the \\
        base URL's folder (`truncatedForUseAsBase`), so the page's scripts can fetch any file \\
        there — `Bundle.main.bundleURL` is the whole app bundle, a Documents folder is the \\
        user's data. Under a policy whose `file-access` is `none` it is an error; one naming a \\
        folder is checked against the base as written (a warning when the audit cannot place \\
        it); with no policy it is a warning. Serve local pages through `interception:` (an \\
        app scheme), or load the file itself with read access to its own folder. Source: \\
        WebKit `WebProcessProxy::assumeReadAccessToBaseURL`; MASTG-TEST-0077; MASWE-0069.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0069"], mastg: ["MASTG-TEST-0077"], cwe: ["CWE-552"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/HelpViewController.swift", """
            func show(_ html: String, in webView: WKWebView) {
                ↓webView.loadHTMLString(html, baseURL: Bundle.main.bundleURL)
            }
            """), policy: """
            webview:
              file-access: none
            """),
            // WebKit for SwiftUI: WebPage's own load of HTML.
            .triggers(.init("App/HelpPage.swift", """
            import WebKit

            @MainActor func show(_ html: String, in page: WebPage) {
                ↓page.load(html: html, baseURL: Bundle.main.bundleURL)
            }
            """), policy: """
            webview:
              file-access: none
            """),
            .triggers(.init("App/Receipt.m", """
            @implementation Receipt
            - (void)show:(NSString *)html in:(WKWebView *)webView {
                NSURL *documents = [[NSFileManager defaultManager] URLsForDirectory:NSDocumentDirectory inDomains:NSUserDomainMask].firstObject;
                ↓[webView loadHTMLString:html baseURL:documents];
            }
            @end
            """)),
            .passes(.init("App/HelpViewController.swift", """
            func show(_ html: String, in webView: WKWebView) {
                webView.loadHTMLString(html, baseURL: URL(string: "app://help/"))
                webView.loadHTMLString("<p>Loading…</p>", baseURL: nil)
            }
            """), policy: """
            webview:
              file-access: none
            """),
        ]
    )

    /// How a file URL is written: the bundle, the container's folders, a path made into a URL.
    static let fileURLShapes = ["bundleURL", "resourceURL", "fileURLWithPath", "fileURL(", "url(forResource", "URLForResource", "documentDirectory",
                                "documentsDirectory", "NSDocumentDirectory", "libraryDirectory", "NSLibraryDirectory", "cachesDirectory", "temporaryDirectory",
                                "NSTemporaryDirectory", "applicationSupportDirectory", "file://", "URL(filePath", "bundlePath", "NSHomeDirectory"]

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        let folder = app.policy?.webView?.fileAccessFolder
        for fact in app.facts() {
            guard case .load(let load) = fact.kind, load.api == .loadHTMLString || load.api == .loadData else { continue }
            let base = load.base.text
            guard load.base.kind != .nil, Self.fileURLShapes.contains(where: base.contains) else { continue }
            let written = CodeValue.abbreviated(base)
            guard let policy = app.policy else {
                context.report("\(load.written) gives the page a file base URL (\(written)): WebKit lets its scripts read every file in that folder",
                               at: fact.site, hint: "serve the page through interception: (an app scheme), or load the file itself (\(load.spelling == nil ? "loadFileURL" : "load(fileURL:allowingReadAccessTo:)")) with read access to its own folder", severity: .warning)
                continue
            }
            let notes = policy.fileAccessNotes
            if let folder {
                if base.contains("\"\(folder)\"") || base.contains("\"\(folder)/") { continue }
                context.report("\(load.written) gives the page a file base URL (\(written)) that the audit cannot place inside file-access '\(folder)': WebKit lets its scripts read that folder",
                               at: fact.site, hint: "use a base inside '\(folder)', or serve the page through interception:", notes: notes, severity: .warning)
            } else {
                context.report("\(load.written) gives the page a file base URL (\(written)), but the policy says file-access: none: WebKit lets its scripts read that folder",
                               at: fact.site, hint: "serve the page through interception: (an app scheme), or give it a non-file base URL", notes: notes)
            }
        }
    }
}
