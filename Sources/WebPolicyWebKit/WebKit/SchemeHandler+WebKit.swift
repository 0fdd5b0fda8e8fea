#if canImport(WebKit)
import WebKit
import WebPolicyRuntime

/// Wraps a `WKURLSchemeTask` as a `SchemeTaskSink`.
private final class WebKitSchemeTask: SchemeTaskSink {
    let task: WKURLSchemeTask
    init(_ task: WKURLSchemeTask) { self.task = task }
    func didReceive(_ response: URLResponse) { task.didReceive(response) }
    func didReceive(_ data: Data) { task.didReceive(data) }
    func didFinish() { task.didFinish() }
    func didFailWithError(_ error: Error) { task.didFailWithError(error) }
}

/// A scheme handler that tolerates stopped tasks: subclasses override `respond(to:)` and
/// never touch the task themselves, so "This task has already been stopped" cannot happen.
/// Serves an interception rule's `serve:` folder by default.
open class PolicySchemeHandler: NSObject, WKURLSchemeHandler {
    public let stopped = StoppedTasks()
    public let package: OfflinePackage?

    public init(package: OfflinePackage?) {
        self.package = package
    }

    /// The response for a request; runs off the main thread. Default: the offline package's
    /// file, or a 404.
    open func respond(to request: URLRequest) async -> Result<(URLResponse, Data), Error> {
        PolicySchemeResponder(package: package).respond(to: request)
    }

    public func webView(_ webView: WKWebView, start urlSchemeTask: WKURLSchemeTask) {
        let task = urlSchemeTask as AnyObject
        let request = urlSchemeTask.request
        let sink = WebKitSchemeTask(urlSchemeTask)
        let stopped = self.stopped
        // WebKit calls scheme handlers on the main thread and wants the task told there too.
        Task.detached {
            let result = await self.respond(to: request)
            await MainActor.run {
                stopped.deliver(result, to: sink, identifiedBy: task)
                stopped.forget(task)
            }
        }
    }

    public func webView(_ webView: WKWebView, stop urlSchemeTask: WKURLSchemeTask) {
        stopped.markStopped(urlSchemeTask as AnyObject)
    }
}

extension SchemeHandlerPlan {
    /// Registers a handler for each scheme: `handler(registration)` when the app gives one,
    /// else a `PolicySchemeHandler` serving the first rule's `serve:` folder from `bundle`.
    public func register(in configuration: WKWebViewConfiguration, bundle: Bundle = .main,
                         handler: (Registration) -> WKURLSchemeHandler? = { _ in nil }) {
        for registration in registrations where configuration.urlSchemeHandler(forURLScheme: registration.scheme) == nil {
            configuration.setURLSchemeHandler(handler(registration) ?? PolicySchemeHandler(package: package(for: registration, resources: bundle.resourceURL)),
                                              forURLScheme: registration.scheme)
        }
    }
}

#endif
