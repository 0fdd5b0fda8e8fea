import UIKit

/// Opens a link the way the user chose: web pages in their browser, everything else with the system.
func openInBrowser(_ url: URL, from controller: UIViewController?) {
    guard ["http", "https"].contains(url.scheme?.lowercased()) else {
        UIApplication.shared.open(url, options: [:], completionHandler: nil)
        return
    }
    UIApplication.shared.open(url)
}
