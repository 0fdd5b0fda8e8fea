import WebKit

enum Scripts {
    static let insertText = "function(text) { document.activeElement.value = text }"
}

/// Scripts the app runs in its page (WebKit for SwiftUI): the safe shapes, and the ones that
/// are not.
@MainActor
final class PageScripts {
    let page: WebPage

    init(page: WebPage) {
        self.page = page
    }

    // Safe: a ternary of literals, numbers, String(format:) of a number, a static script beside
    // an escaped value, String(reflecting:), unquoted JSON, the team's named escaper.
    func applySettings(pinchToZoom: Bool, columns: Int, zoom: Double) async throws {
        let enabled = pinchToZoom ? "true" : "false"
        _ = try await page.callJavaScript("setZoomEnabled(\(enabled), \(columns))")
        _ = try await page.callJavaScript(String(format: "document.body.style.zoom = '%.0f%%'", zoom * 100))
    }

    func insert(_ text: String) async throws {
        _ = try await page.callJavaScript("(\(Scripts.insertText))(\(Self.jsStringLiteral(text)))")
        _ = try await page.callJavaScript("setCookies(\(String(reflecting: text)))")
        _ = try await page.callJavaScript("highlight(\(JSText.quoted(text)))")
    }

    private static func jsStringLiteral(_ string: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: string, options: [.fragmentsAllowed])
        return String(data: data, encoding: .utf8)!
    }

    // Errors: what the page chose — the title it set, a link's URL.
    func mirrorTitle() async throws {
        let title = page.title
        try await run("document.getElementById('mirror').textContent = '" + title + "'")
    }

    // A warning: a value from another file, quoted.
    func scrollTo(headingID: String) async throws {
        _ = try await page.callJavaScript("scrollToHeading('\(headingID)')")
    }

    /// The app's wrapper: its callers build the text.
    private func run(_ script: String) async throws {
        _ = try await page.callJavaScript(script)
    }
}

/// The page's navigation decider, which reports every link to the page's own tracker.
struct TrackingDecider: WebPage.NavigationDeciding {
    weak var scripts: PageScripts?

    mutating func decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
        if let link = action.request.url?.absoluteString {
            _ = try? await scripts?.page.callJavaScript("track('\(link)')")
        }
        return .allow
    }
}
