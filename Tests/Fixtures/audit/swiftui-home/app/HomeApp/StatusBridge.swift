import WebKit

/// The hub's status page reports its battery through this bridge; the gate still admits the
/// hub's old address, which the policy no longer lists.
final class StatusBridge: NSObject, WKScriptMessageHandler {
    func install(in controller: WKUserContentController) {
        controller.add(self, name: "hubStatus")
    }

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        let origin = message.frameInfo.securityOrigin
        guard origin.host == "status.example.org" || origin.host == "hub-legacy.example.org" else { return }
        show(message.body)
    }

    private func show(_ body: Any) {}
}
