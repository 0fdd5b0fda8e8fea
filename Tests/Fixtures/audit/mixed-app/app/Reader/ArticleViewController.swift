import SwiftUI
import WebKit
import WebPolicyRuntime
import WebPolicyWebKit

final class ArticleViewController: UIViewController {
    let policy: RuntimePolicy
    lazy var webView = WKWebView(frame: .zero, policy: policy)

    init(policy: RuntimePolicy) {
        self.policy = policy
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { fatalError("created in code") }

    func install(_ gate: ScriptMessageGate, in controller: WKUserContentController) throws {
        try gate.registerWithReply({ _, reply in reply(nil, nil) }, as: "reader", in: controller)
    }

    func show(_ html: String) {
        webView.loadHTMLString(html, baseURL: URL(string: "reader-local://articles/"))
        #if compiler(>=5.8)
        webView.configuration.defaultWebpagePreferences.allowsContentJavaScript = true
        #endif
    }
}

#Preview {
    WebPreview(webView: WKWebView())
}
