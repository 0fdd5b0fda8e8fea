import WebKit

/// The page asks for a token and names the function the app calls back: the callback's name
/// goes through two helpers before it is spliced into script text.
final class AuthHandler: NSObject, WKScriptMessageHandler {
    weak var page: WebPage?

    func install(in controller: WKUserContentController) {
        controller.add(self, name: "auth")
    }

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        guard let body = message.body as? [String: Any] else { return }
        route(name: message.name, body: body)
    }

    private func route(name: String, body: [String: Any]) {
        switch name {
        case "auth": handleAuth(body)
        default: break
        }
    }

    private func handleAuth(_ body: [String: Any]) {
        guard let callback = body["callback"] as? String else { return }
        let token = ["token": "abc"]
        let json = String(data: try! JSONSerialization.data(withJSONObject: token), encoding: .utf8)!
        Task { @MainActor in _ = try await page?.callJavaScript("\(callback)(true, \(json))") }
    }
}
