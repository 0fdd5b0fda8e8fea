import SwiftUI
import WebKit

/// Help pages: a page built by hand, not through the runtime.
@MainActor
final class HelpModel {
    private let helpPage = WebPage(configuration: WebPage.Configuration())

    func show(title: String?) async {
        helpPage.isInspectable = true
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let page = documents.appendingPathComponent("help/index.html")
        helpPage.load(fileURL: page, allowingReadAccessTo: documents)
        // webpolicy:disable-next-line script-interpolation -- the title is one of our own, escaped by the CMS
        _ = try? await helpPage.callJavaScript("setTitle('\(title ?? "")')")
        _ = try? await helpPage.callJavaScript("window.location.href='" + page.absoluteString + "'")
        helpPage.load(html: remoteHTML(), baseURL: URL(string: "about:blank")!)
        if UIApplication.shared.canOpenURL(URL(string: "tel:123")!) {}
    }

    private func remoteHTML() -> String { "" }
}
