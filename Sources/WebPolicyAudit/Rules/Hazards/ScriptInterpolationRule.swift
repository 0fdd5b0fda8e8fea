import WebPolicyKit
import WebPolicyRuntime

/// Script text built from values: a quote in the value ends the string and the rest runs. The
/// Swift reader follows each spliced value through the file (`ScriptSplice`); what the page
/// chose is an error, what the file does not show a warning, literals, numbers and escaped or
/// JSON-encoded values are safe.
struct ScriptInterpolationRule: AuditRule {
    static let needsPolicy = false
    static let description = RuleDescription(
        id: "script-interpolation",
        name: "Script Built by Interpolation",
        category: .appHazards,
        defaultSeverity: .warning,
        summary: "`evaluateJavaScript` or `callAsyncJavaScript` runs a script built by interpolating, concatenating or formatting values: a value the page chose is an error (the page picks code the app runs), one the audit cannot see a warning.",
        rationale: """
        `"showBanner('\\(title)')"` is code as soon as `title` holds a quote. Pass values as \
        `callAsyncJavaScript(_:arguments:in:in:)` arguments, which WebKit hands over as data, \
        or JSON-encode them without wrapping them in quotes again. In Swift the audit follows \
        each spliced value through the file — locals, `if let` and `guard let`, the file's \
        properties and `static let`s, its functions (into a helper's return, out to a helper's \
        callers, several calls deep): string literals, their ternaries, numbers and Booleans \
        (literals, arithmetic, values declared `Int` or `Bool`, `String(format:)` of numeric \
        specifiers), `String(reflecting:)`, JSON from `JSONSerialization` or `JSONEncoder` \
        (unquoted), and values through an escaper — a function whose body JSON-encodes or \
        replaces quotes, one whose name says it escapes or quotes, or one named under \
        `audit.script-escapers` in `.webpolicy.yml` — are safe. A value read from a script \
        message's body, a navigation's or new window's request, the page's title or URL, or \
        the URL the app was opened with is an error, and the finding names it, the line it was \
        read on and the functions it passed through. A value the file does not show (a \
        parameter called from another file, another type's property) is a warning naming \
        what to check. A script held in a variable whose text the audit cannot see is not \
        reported. Objective-C is judged by the format call's text. Source: MASTG-TEST-0078; \
        CodeQL `swift/unsafe-js-eval` (CWE-094); audit-checks.md HZ4, BR7.
        """,
        standards: .init(masvs: ["MASVS-PLATFORM-2", "MASVS-CODE-4"], maswe: ["MASWE-0072"], mastg: ["MASTG-TEST-0078"], cwe: ["CWE-94"]),
        failing: [], passing: [],
        codeExamples: [
            // A property that starts as a literal holds what the file assigns it later too.
            .triggers(.init("App/Mirror.swift", """
            final class Mirror {
                let webView = WKWebView()
                var heading = "Welcome"

                func update() {
                    heading = webView.title ?? ""
                }

                func show() {
                    ↓webView.evaluateJavaScript("document.title = '\\(heading)'")
                }
            }
            """)),
            .triggers(.init("App/Banner.swift", """
            func show(_ title: String, in webView: WKWebView) {
                let script = "showBanner('\\(title)')"
                ↓webView.evaluateJavaScript(script)
            }
            """)),
            .triggers(.init("App/Bridge.m", """
            @implementation Bridge
            - (void)open:(NSURL *)url in:(WKWebView *)webView {
                ↓[webView evaluateJavaScript:[NSString stringWithFormat:@"onDeepLink(\\"%@\\")", url.absoluteString] completionHandler:nil];
            }
            @end
            """)),
            .triggers(.init("App/Bus.swift", """
            func send(_ jsonText: String, in webView: WKWebView) {
                ↓webView.evaluateJavaScript("receive(JSON.parse('\\(jsonText)'))")
            }
            """)),
            .triggers(.init("App/AuthHandler.swift", """
            final class AuthHandler: NSObject, WKScriptMessageHandler {
                weak var webView: WKWebView?

                func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
                    guard let body = message.body as? [String: Any] else { return }
                    route(body)
                }

                private func route(_ body: [String: Any]) {
                    if let callback = body["callback"] as? String { answer(callback: callback) }
                }

                private func answer(callback: String) {
                    ↓webView?.evaluateJavaScript("\\(callback)(true)")
                }
            }
            """)),
            // WebKit for SwiftUI: WebPage's callJavaScript, read as evaluateJavaScript is.
            .triggers(.init("App/ArticlePage.swift", """
            import WebKit

            @MainActor func highlight(_ term: String, in page: WebPage) async throws {
                _ = try await ↓page.callJavaScript("highlight('\\(term)')")
            }
            """)),
            .passes(.init("App/Banner.swift", """
            func show(_ title: String, in webView: WKWebView, jsonString: String, zoom: Int, pinch: Bool, scale: Double) async throws {
                webView.evaluateJavaScript("document.title")
                webView.evaluateJavaScript("window.externalBus(\\(jsonString))")
                webView.evaluateJavaScript("showBanner(\\(Self.jsStringLiteral(title)), \\(2))")
                let enabled = pinch ? "true" : "false"
                webView.evaluateJavaScript("setZoomEnabled(\\(enabled), \\(zoom))")
                webView.evaluateJavaScript(String(format: "document.body.style.zoom = '%.0f%%'", scale * 100))
                _ = try await webView.callAsyncJavaScript("showBanner(title)", arguments: ["title": title], contentWorld: .page)
            }
            """), .init("App/Script.swift", """
            enum Script {
                static let injectText = "function(text) { document.activeElement.value = text }"
            }
            func insert(_ text: String, in webView: WKWebView) {
                let data = try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])
                let literal = String(data: data, encoding: .utf8)!
                webView.evaluateJavaScript("(\\(Script.injectText))(\\(literal))")
                webView.evaluateJavaScript("setCookies(\\(String(reflecting: text)))")
            }
            """)),
        ]
    )

    func check(_ app: AuditSubject, _ context: inout AuditRuleContext) {
        for fact in app.facts() {
            guard case .script(let script) = fact.kind else { continue }
            guard let splices = script.splices else {
                checkByText(script, fact, &context)
                continue
            }
            let arguments = Self.argumentsCall(script)
            let judged = splices.map { ($0, verdict($0, escapers: app.scriptEscapers)) }
            let hostile = judged.filter { $0.1 == .hostile }.map(\.0)
            let unseen = judged.filter { $0.1 == .unseen }.map(\.0)
            if !hostile.isEmpty {
                let origins = hostile.flatMap { $0.origins.filter(\.isHostile) }
                let first = origins.first
                let from = first.map { " (\($0.detail)\($0.site.map { ", line \($0.range.start.line)" } ?? ""))" } ?? ""
                let (site, wrapper) = place(hostile, fact: fact)
                context.report("\(script.api) runs a script that splices \(Self.names(hostile)), which the page chose\(from): the page picks code the app runs",
                               at: site, hint: "pass values the page chose as \(arguments) arguments (or answer through the reply handler), never in the script's text",
                               notes: wrapper + notes(hostile, origins: origins, at: site), severity: .error)
            } else if !unseen.isEmpty {
                let origins = unseen.flatMap { splice in splice.origins.filter { !isSafe($0, in: splice, escapers: app.scriptEscapers) } }
                let what = origins.first.map { " (\($0.detail))" } ?? ""
                let (site, wrapper) = place(unseen, fact: fact)
                context.report("\(script.api) runs a script built from \(Self.names(unseen)), whose value the audit cannot see\(what): a quote in it runs as code",
                               at: site, hint: "pass the values as \(arguments) arguments, or through an escaper (audit.script-escapers in .webpolicy.yml names yours)",
                               notes: wrapper + notes(unseen, origins: origins, at: site))
            }
        }
    }

    enum Verdict { case safe, unseen, hostile }

    func verdict(_ splice: ScriptSplice, escapers: Set<String>) -> Verdict {
        if splice.origins.contains(where: \.isHostile) { return .hostile }
        return splice.origins.allSatisfy { isSafe($0, in: splice, escapers: escapers) } ? .safe : .unseen
    }

    func isSafe(_ origin: ValueOrigin, in splice: ScriptSplice, escapers: Set<String>) -> Bool {
        switch origin.kind {
        case .literal, .number, .escaped: return true
        case .json: return !splice.quoted
        case .page, .openedURL: return false
        case .unknown:
            if origin.calls.contains(where: escapers.contains) { return true }
            // A value named as JSON, spliced unquoted, is taken at its word (the app's convention).
            return !splice.quoted && splice.expression.lowercased().contains("json")
        }
    }

    /// Where the finding goes: the evaluate call, or — when the text is built by a wrapper's
    /// caller elsewhere — that caller's line, where the fix is, with a note for the call.
    func place(_ splices: [ScriptSplice], fact: AppFact) -> (FactSite, [Diagnostic.Note]) {
        let lines = Set(splices.map { "\($0.location.path):\($0.location.range.start.line)" })
        guard lines.count == 1, let splice = splices.first, splices.allSatisfy(\.builtElsewhere) else { return (fact.site, []) }
        var site = fact.site
        site.location = splice.location
        site.enclosingFunction = nil
        return (site, [Diagnostic.Note("the script is run here", at: fact.site.location)])
    }

    static func sameLine(_ left: SourceLocation, _ right: SourceLocation) -> Bool {
        left.path == right.path && left.range.start.line == right.range.start.line
    }

    /// Where each value came from and the functions it passed through; where it is spliced when
    /// that is another line than the finding's.
    func notes(_ splices: [ScriptSplice], origins: [ValueOrigin], at site: FactSite) -> [Diagnostic.Note] {
        var notes: [Diagnostic.Note] = []
        for splice in splices where !Self.sameLine(splice.location, site.location) {
            notes.append(Diagnostic.Note("\(splice.expression) is spliced into the script here", at: splice.location))
        }
        var seen: Set<String> = []
        for origin in origins {
            let through = origin.through.isEmpty ? "" : ", through \(SchemeScope.list(origin.through))"
            let text = "the value comes from \(origin.detail)\(through)"
            guard seen.insert(text).inserted else { continue }
            notes.append(Diagnostic.Note(text, at: origin.site))
        }
        return notes
    }

    static func names(_ splices: [ScriptSplice]) -> String {
        var unique: [String] = []
        for splice in splices where !unique.contains(splice.expression) { unique.append(splice.expression) }
        return SchemeScope.list(unique.map { "`\($0)`" })
    }

    /// The call that takes values as arguments instead of text: WebKit for SwiftUI's own for a
    /// page's `callJavaScript`, WKWebView's otherwise.
    static func argumentsCall(_ script: AppFact.Script) -> String {
        script.api == "callJavaScript" ? "callJavaScript(_:arguments:in:contentWorld:)" : "callAsyncJavaScript(_:arguments:in:in:)"
    }

    /// Objective-C, which has no value flow: the format call's text.
    func checkByText(_ script: AppFact.Script, _ fact: AppFact, _ context: inout AuditRuleContext) {
        guard script.script.kind == .interpolated else { return }
        let inHandler = fact.site.enclosingFunction?.hasPrefix("userContentController") ?? false
        if inHandler && (script.script.text.contains("body") || script.script.text.contains("message")) {
            context.report("\(script.api) runs a script built from the script message's body: the page chooses code the app runs",
                           at: fact.site, hint: "reply with callAsyncJavaScript arguments or the reply handler, never by building script text", severity: .error)
        } else {
            context.report("\(script.api) runs a script built from values (\(script.script.quoted)): a quote in a value runs as code",
                           at: fact.site, hint: "pass the values as callAsyncJavaScript(_:arguments:in:in:) arguments")
        }
    }
}
