import UIKit
import WebKit
import WebPolicyRuntime
import WebPolicyWebKit

enum Channel: String {
    case cart
    case wallet = "wallet"
}

private let legacyChannel = "legacyLog"

final class ShopViewController: UIViewController, WKScriptMessageHandler, WKScriptMessageHandlerWithReply {
    private let policy: RuntimePolicy
    private var webView: WKWebView!

    init(policy: RuntimePolicy) {
        self.policy = policy
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { fatalError("created in code") }

    override func viewDidLoad() {
        super.viewDidLoad()
        let configuration = WKWebViewConfiguration(policy: policy)
        let controller = configuration.userContentController
        // Declared bridges, one through a String enum, one through a constant: silent.
        controller.add(self, name: Channel.cart.rawValue)
        // A bridge declared without reply, registered with one.
        controller.addScriptMessageHandler(self, contentWorld: .page, name: Channel.wallet.rawValue)
        // A bridge declared for the checkout world, registered in the page world.
        controller.add(self, name: "checkout")
        // Not declared at all.
        controller.add(self, name: legacyChannel)
        // A name chosen at run time: said as such.
        controller.add(self, name: "feature-\(UUID().uuidString)")
        // Commented out, and in a string: silent.
        // controller.add(self, name: "debugBridge")
        print("controller.add(self, name: \"stringBridge\")")
        // Look-alikes: silent.
        fixtures.add(name: "x", value: 1)
        configuration.preferences.javaScriptCanOpenWindowsAutomatically = false
        webView = WKWebView(frame: view.bounds, configuration: configuration)
        #if DEBUG
        webView.isInspectable = true
        #endif
        view.addSubview(webView)
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame else { return }
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
                               replyHandler: @escaping (Any?, String?) -> Void) {
        replyHandler(nil, nil)
    }

    private let fixtures = Fixtures()
}

struct Fixtures {
    func add(name: String, value: Int) {}
}
