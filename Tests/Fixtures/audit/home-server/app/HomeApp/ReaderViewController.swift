import UIKit
import WebKit

/// Articles, in a view that only TestFlight builds should let testers inspect.
final class ReaderViewController: UIViewController {
    private let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())

    override func viewDidLoad() {
        super.viewDidLoad()
        if !Bundle.main.isProduction {
            webView.isInspectable = true
        }
        if Environment.webInspectorRequested {
            webView.isInspectable = true
        }
        #if DEBUG
        webView.isInspectable = true
        #endif
    }
}
