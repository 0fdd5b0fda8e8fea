import WebKit

/// Articles, in a page that only TestFlight builds should let testers inspect.
@available(iOS 26.0, *)
@MainActor
final class ReaderModel {
    private let page = WebPage()

    func prepare() {
        if !Bundle.main.isProduction {
            page.isInspectable = true
        }
        if Environment.webInspectorRequested {
            page.isInspectable = true
        }
        #if DEBUG
        page.isInspectable = true
        #endif
    }
}
