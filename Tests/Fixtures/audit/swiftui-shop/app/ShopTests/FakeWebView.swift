import WebKit

// Test doubles are not read by default.
final class FakeWebView: WKWebView {
    func install(_ controller: WKUserContentController) {
        controller.add(FakeHandler(), name: "testOnly")
        isInspectable = true
    }
}
