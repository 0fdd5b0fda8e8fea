import SwiftUI
import WebKit
import WebPolicyRuntime

// The shop of swift-shop, written with WebKit for SwiftUI (iOS 26): the same policy, the same
// Info.plist, the same mistakes where a WebPage can make them.

enum Channel: String {
    case cart
    case wallet = "wallet"
}

private let legacyChannel = "legacyLog"

@MainActor
final class ShopModel: NSObject, WKScriptMessageHandler, WKScriptMessageHandlerWithReply {
    private let policy: RuntimePolicy
    private(set) var page: WebPage?

    init(policy: RuntimePolicy) {
        self.policy = policy
        super.init()
    }

    func makePage() -> WebPage {
        var configuration = WebPage.Configuration()
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
        installSchemeHandlers(&configuration)
        let page = WebPage(configuration: configuration, navigationDecider: ShopDecider())
        #if DEBUG
        page.isInspectable = true
        #endif
        self.page = page
        return page
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

struct ShopView: View {
    let model: ShopModel

    var body: some View {
        WebView(model.makePage())
    }
}
