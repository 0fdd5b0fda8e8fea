import Foundation
import WebPolicyRuntime

/// The configuration a policy's `webview:` sets before the web view exists: a
/// `WKWebViewConfiguration` in an app (its adapter reaches into `defaultWebpagePreferences`
/// and `preferences`), a fake in tests.
public protocol WebViewConfigurable: AnyObject {
    /// `defaultWebpagePreferences.allowsContentJavaScript` (iOS 14).
    var allowsContentJavaScript: Bool { get set }
    /// `preferences.javaScriptCanOpenWindowsAutomatically`.
    var javaScriptCanOpenWindowsAutomatically: Bool { get set }
    /// `upgradeKnownHostsToHTTPS` (iOS 14.5).
    var upgradeKnownHostsToHTTPS: Bool { get set }
    /// `preferences.isFraudulentWebsiteWarningEnabled` (iOS 13).
    var fraudulentWebsiteWarning: Bool { get set }
    /// `dataDetectorTypes` (iOS only).
    var dataDetectors: [DataDetector] { get set }
}

/// What is set on the view itself, once it exists: `isInspectable` (iOS 16.4).
public protocol InspectionTarget: AnyObject {
    func applyInspectable(_ inspectable: Bool)
}

/// Why a file URL may not be loaded.
public enum FileAccessError: Error, Equatable, CustomStringConvertible {
    /// `webview.file-access` is none (or absent): the view loads no file URL.
    case noFileAccess
    /// The file is outside the folder the policy names.
    case outsideFolder(file: String, folder: String)

    public var description: String {
        switch self {
        case .noFileAccess: return "the policy's webview.file-access is none: the view loads no file URL"
        case .outsideFolder(let file, let folder): return "\(file) is outside \(folder), the only folder the policy lets the view read"
        }
    }
}

extension RuntimePolicy {
    /// Applies `webview:` to a configuration before the view exists (WebKit copies the
    /// configuration when it makes the view). A policy without the section changes nothing.
    public func configureWebView(_ configuration: WebViewConfigurable) {
        guard let settings = manifest.webView else { return }
        configuration.allowsContentJavaScript = settings.javaScript
        configuration.javaScriptCanOpenWindowsAutomatically = settings.javaScriptCanOpenWindows
        configuration.upgradeKnownHostsToHTTPS = settings.upgradeKnownHostsToHTTPS
        configuration.fraudulentWebsiteWarning = settings.fraudulentWebsiteWarning
        configuration.dataDetectors = settings.dataDetectors
    }

    /// Applies `webview.inspectable` to the view (with no section: nothing).
    public func configureInspection(_ view: InspectionTarget) {
        guard let settings = manifest.webView else { return }
        view.applyInspectable(settings.inspectable)
    }

    /// The folder to pass as `allowingReadAccessTo:` for a file of the app bundle at
    /// `bundle`: the one `webview.file-access` names, when the file is in it. OWASP
    /// MASTG-TEST-0077: the page may read every file under that folder, so it is never wider
    /// than the policy says.
    public func fileReadAccess(for file: URL, bundle: URL) throws(FileAccessError) -> URL {
        guard let folderName = manifest.webView?.fileAccess else { throw .noFileAccess }
        let folder = bundle.appendingPathComponent(folderName, isDirectory: true).standardizedFileURL
        let path = file.standardizedFileURL.path
        let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        guard path.hasPrefix(prefix) else { throw .outsideFolder(file: path, folder: folder.path) }
        return folder
    }
}
