import WebKit

enum Schemes {
    static let local = "shop-local"
    static let assets = "shop-assets"
}

func installSchemeHandlers(_ configuration: WKWebViewConfiguration) {
    configuration.setURLSchemeHandler(LocalHandler(), forURLScheme: Schemes.local)
    configuration.setURLSchemeHandler(AssetHandler(), forURLScheme: Schemes.assets)
    configuration.setURLSchemeHandler(AssetHandler(), forURLScheme: "https")
    configuration.limitsNavigationsToAppBoundDomains = false
    configuration.defaultWebpagePreferences.allowsContentJavaScript = true
    configuration.preferences.setValue(true, forKey: "allowFileAccessFromFileURLs")
    URLProtocol.registerClass(OfflineProtocol.self)
    // UIWebView was removed in 2021.
}

extension ShopViewController: WKNavigationDelegate, WKUIDelegate {
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                 decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
        decisionHandler(navigationAction.request.url?.absoluteString.hasPrefix("https://shop.example.com") == true ? .allow : .cancel)
    }

    func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
                 for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView? {
        let popup = WKWebView(frame: webView.bounds, configuration: configuration)
        return popup
    }
}
