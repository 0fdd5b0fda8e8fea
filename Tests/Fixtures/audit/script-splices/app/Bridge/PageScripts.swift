import WebKit

enum Scripts {
    static let insertText = "function(text) { document.activeElement.value = text }"
}

/// Scripts the app runs in its pages: the safe shapes, and the ones that are not.
final class PageScripts {
    let webView: WKWebView

    init(webView: WKWebView) {
        self.webView = webView
    }

    // Safe: a ternary of literals, numbers, String(format:) of a number, a static script beside
    // an escaped value, String(reflecting:), unquoted JSON, the team's named escaper.
    func applySettings(pinchToZoom: Bool, columns: Int, zoom: Double) {
        let enabled = pinchToZoom ? "true" : "false"
        webView.evaluateJavaScript("setZoomEnabled(\(enabled), \(columns))")
        webView.evaluateJavaScript(String(format: "document.body.style.zoom = '%.0f%%'", zoom * 100))
    }

    func insert(_ text: String) {
        webView.evaluateJavaScript("(\(Scripts.insertText))(\(Self.jsStringLiteral(text)))")
        webView.evaluateJavaScript("setCookies(\(String(reflecting: text)))")
        webView.evaluateJavaScript("highlight(\(JSText.quoted(text)))")
    }

    private static func jsStringLiteral(_ string: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: string, options: [.fragmentsAllowed])
        return String(data: data, encoding: .utf8)!
    }

    // Errors: what the page chose — the title it set, a link's URL.
    func mirrorTitle() {
        let title = webView.title ?? ""
        run("document.getElementById('mirror').textContent = '" + title + "'")
    }

    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                 decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
        if let link = navigationAction.request.url?.absoluteString {
            webView.evaluateJavaScript("track('\(link)')")
        }
        decisionHandler(.allow)
    }

    // A warning: a value from another file, quoted.
    func scrollTo(headingID: String) {
        webView.evaluateJavaScript("scrollToHeading('\(headingID)')")
    }

    /// The app's wrapper: its callers build the text.
    private func run(_ script: String) {
        webView.evaluateJavaScript(script, completionHandler: nil)
    }
}
