import WebKit

/// Passes the main frame's messages on to the delegate; the server's own page only.
final class MessageGate: NSObject, WKScriptMessageHandler {
    weak var delegate: WKScriptMessageHandler?

    init(delegate: WKScriptMessageHandler) {
        self.delegate = delegate
    }

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame else { return }
        delegate?.userContentController(controller, didReceive: message)
    }
}

@available(iOS 26.0, *)
extension ServerModel: WKScriptMessageHandler {
    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {}
}
