import SwiftUI
import WebKit

/// The server the user signed in to, in a page of its own (WebKit for SwiftUI).
@available(iOS 26.0, *)
@MainActor
final class ServerModel: NSObject {
    private(set) var page: WebPage!

    func makePage() {
        var configuration = WebPage.Configuration()
        configuration.userContentController.add(MessageGate(delegate: self), name: "externalBus")
        configuration.deviceSensorAuthorization = WebPage.DeviceSensorAuthorization(decision: .grant)
        page = WebPage(configuration: configuration, navigationDecider: ServerDecider())
        page.isInspectable = true
    }

    func showHelp(_ html: String) {
        page.load(html: html, baseURL: Bundle.main.bundleURL)
    }
}

/// A page has no new-window hook: a new window arrives here, as an action without a target frame.
@available(iOS 26.0, *)
struct ServerDecider: WebPage.NavigationDeciding {
    mutating func decidePolicy(for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences) async -> WKNavigationActionPolicy {
        guard let url = action.request.url else { return .cancel }
        if action.target == nil {
            await openInBrowser(url, from: nil)
            return .cancel
        }
        if url.scheme == "mailto" || url.scheme == "tel" {
            await UIApplication.shared.open(url)
            return .cancel
        }
        return .allow
    }
}

@available(iOS 26.0, *)
struct ServerScreen: View {
    let model: ServerModel

    var body: some View {
        WebView(model.page)
    }
}
