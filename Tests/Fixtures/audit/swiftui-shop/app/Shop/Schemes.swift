import WebKit

enum Schemes {
    static let local = "shop-local"
    static let assets = "shop-assets"
}

func installSchemeHandlers(_ configuration: inout WebPage.Configuration) {
    configuration.urlSchemeHandlers[URLScheme(Schemes.local)!] = LocalHandler()
    configuration.urlSchemeHandlers[URLScheme(Schemes.assets)!] = AssetHandler()
    configuration.urlSchemeHandlers[URLScheme("https")!] = AssetHandler()
    configuration.limitsNavigationsToAppBoundDomains = false
    configuration.defaultNavigationPreferences.allowsContentJavaScript = true
    URLProtocol.registerClass(OfflineProtocol.self)
}

struct ShopDecider: WebPage.NavigationDeciding {
    mutating func decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
        // Scripts off for every page, as the original's storyboard turns them off.
        preferences.allowsContentJavaScript = false
        return action.request.url?.absoluteString.hasPrefix("https://shop.example.com") == true ? .allow : .cancel
    }
}
