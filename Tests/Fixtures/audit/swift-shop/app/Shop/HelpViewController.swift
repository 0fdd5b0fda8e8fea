import UIKit
import WebKit

/// Help pages: built by hand, not through the runtime.
final class HelpViewController: UIViewController {
    private let helpView = HelpWebView(frame: .zero, configuration: WKWebViewConfiguration())

    override func viewDidLoad() {
        super.viewDidLoad()
        helpView.isInspectable = true
        helpView.configuration.upgradeKnownHostsToHTTPS = false
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let page = documents.appendingPathComponent("help/index.html")
        helpView.loadFileURL(page, allowingReadAccessTo: documents)
        // webpolicy:disable-next-line script-interpolation -- the title is one of our own, escaped by the CMS
        helpView.evaluateJavaScript("setTitle('\(title ?? "")')")
        helpView.evaluateJavaScript("window.location.href='" + page.absoluteString + "'")
        helpView.loadHTMLString(remoteHTML(), baseURL: nil)
        helpView.loadHTMLString("", baseURL: nil)
        if UIApplication.shared.canOpenURL(URL(string: "tel:123")!) {}
    }

    private func remoteHTML() -> String { "" }
}

class BaseWebView: WKWebView {}
final class HelpWebView: BaseWebView {}
