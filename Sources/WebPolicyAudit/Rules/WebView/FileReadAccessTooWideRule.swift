import WebPolicyKit
import WebPolicyRuntime

/// `loadFileURL(_:allowingReadAccessTo:)`: "To prevent WebKit from reading any other content,
/// specify the same value as the URL parameter" (Apple).
struct FileReadAccessTooWideRule: AuditRule {
    static let description = RuleDescription(
        id: "file-read-access-too-wide",
        name: "File Read Access Wider Than file-access",
        category: .appCode,
        defaultSeverity: .error,
        summary: "A file load grants read access wider than `webview.file-access`: the Documents or Library folder, the container or the whole bundle (error), or a folder the policy does not name (warning).",
        rationale: """
        The read-access URL is every file the page may then read, with `fetch` and \
        `XMLHttpRequest` on `file:` URLs — and send wherever it can reach. \
        `webview.file-access` names the one folder of the bundle the policy allows (default \
        none); the runtime's `policy.fileReadAccess(for:bundle:)` gives that folder. Read \
        access to Documents, Library or the container root is an error whatever the policy, \
        and so is the bundle's root (`Bundle.main.bundleURL`) where the policy names one folder \
        of it; \
        any other folder — one the audit cannot place, or any when the policy says none — is a \
        warning. Source: Apple, \
        `loadFileURL(_:allowingReadAccessTo:)`; MASTG-TEST-0077; MASWE-0069; audit-checks.md WV5.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2"], maswe: ["MASWE-0069"], mastg: ["MASTG-TEST-0077"], cwe: ["CWE-552"]),
        failing: [], passing: [],
        codeExamples: [
            .triggers(.init("App/Offline.swift", """
            func show(_ page: URL, in webView: WKWebView) {
                let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                ↓webView.loadFileURL(page, allowingReadAccessTo: documents)
            }
            """), policy: """
            webview:
              file-access: www
            """),
            .triggers(.init("App/OfflinePage.swift", """
            import WebKit

            @MainActor func show(_ file: URL, in page: WebPage) {
                let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                ↓page.load(fileURL: file, allowingReadAccessTo: documents)
            }
            """), policy: """
            webview:
              file-access: www
            """),
            .triggers(.init("App/Help.swift", """
            func showHelp(_ page: URL, in webView: WKWebView) {
                ↓webView.loadFileURL(page, allowingReadAccessTo: Bundle.main.bundleURL)
            }
            """), policy: """
            webview:
              file-access: Help
            """),
            .passes(.init("App/Offline.swift", """
            func show(_ page: URL, in webView: WKWebView, policy: RuntimePolicy) throws {
                webView.loadFileURL(page, allowingReadAccessTo: page)
                webView.loadFileURL(page, allowingReadAccessTo: try policy.fileReadAccess(for: page, bundle: Bundle.main.bundleURL))
            }
            """), policy: """
            webview:
              file-access: www
            """),
        ]
    )

    /// The bundle's root, as apps write it.
    static let bundleRoots: Set<String> = ["Bundle.main.bundleURL", "Bundle.main.resourceURL", "Bundle.main.resourceURL!", "Bundle.main.bundleURL.absoluteURL",
                                           "[[NSBundlemainBundle]bundleURL]", "[[NSBundlemainBundle]resourceURL]", "NSBundle.mainBundle.bundleURL", "NSBundle.mainBundle.resourceURL"]

    static let containerFolders = ["documentDirectory", "libraryDirectory", "applicationSupportDirectory", "cachesDirectory", "NSHomeDirectory",
                                   "NSDocumentDirectory", "NSLibraryDirectory", "homeDirectory", "temporaryDirectory", "NSTemporaryDirectory"]

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        guard let policy = app.policy else { return }
        let folder = policy.webView?.fileAccessFolder
        let notes = policy.fileAccessNotes
        for fact in app.facts() {
            guard case .load(let load) = fact.kind, load.api == .loadFileURL || load.api == .loadFileRequest else { continue }
            let access = load.base.text
            if access.contains("fileReadAccess(") || access == load.content.text { continue }
            if let container = Self.containerFolders.first(where: access.contains) {
                context.report("the page is given read access to \(access) (\(container)): every file the app keeps there, for any script the page runs",
                               at: fact.site, hint: "grant the page's own folder only: policy.fileReadAccess(for: page, bundle: Bundle.main.bundleURL)", notes: notes)
                continue
            }
            // The bundle itself (its root or its resources): every file the app ships, wider
            // than any one folder the policy can name.
            if let folder, Self.bundleRoots.contains(access.replacingOccurrences(of: " ", with: "")) {
                context.report("the page is given read access to \(access): every file of the app's bundle, wider than file-access '\(folder)'",
                               at: fact.site, hint: "grant the folder alone: policy.fileReadAccess(for: page, bundle: Bundle.main.bundleURL)", notes: notes)
                continue
            }
            if let folder {
                if access.contains("\"\(folder)\"") || access.contains("\"\(folder)/") { continue }
                context.report("the page is given read access to \(access), which the audit cannot place inside file-access '\(folder)'",
                               at: fact.site, hint: "grant policy.fileReadAccess(for: page, bundle: Bundle.main.bundleURL), or the page's own URL", notes: notes, severity: .warning)
            } else {
                context.report("the page is given read access to \(access), but the policy says file-access: none",
                               at: fact.site, hint: "grant the page's own URL only, or name the folder under webview.file-access", notes: notes, severity: .warning)
            }
        }
    }
}
