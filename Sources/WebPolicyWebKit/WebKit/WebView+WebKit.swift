#if canImport(WebKit)
import WebKit
import WebPolicyRuntime

extension WKWebViewConfiguration {
    /// A configuration with everything the policy sets before a view exists: the App-Bound
    /// limit (`configureNavigation`), `webview:` (`configureWebView`) and a handler for every
    /// scheme `interception:` serves (`SchemeHandlerPlan`). WKWebView copies its configuration
    /// when the view is made (Apple, `init(frame:configuration:)`), so this comes first.
    /// `webpolicy audit` recognises this call: a view built from it is managed.
    public convenience init(policy: RuntimePolicy, bundle: Bundle = .main) {
        self.init()
        policy.configureNavigation(self)
        policy.configureWebView(self)
        SchemeHandlerPlan(policy.manifest).register(in: self, bundle: bundle)
    }
}

extension WKWebView {
    /// A web view built from `WKWebViewConfiguration(policy:)`, inspectable as
    /// `webview.inspectable` says. Rule lists, cookies and bridges still need their own calls
    /// (`preparePolicy`, `ScriptMessageGate`), since they take the view's content controller
    /// and data store once the view exists.
    public convenience init(frame: CGRect, policy: RuntimePolicy, bundle: Bundle = .main) {
        self.init(frame: frame, configuration: WKWebViewConfiguration(policy: policy, bundle: bundle))
        policy.configureInspection(self)
    }
}
#endif
