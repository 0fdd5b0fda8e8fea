import WebPolicyKit

/// Every audit rule, by category. A test checks that each file under `Rules/` is listed here
/// exactly once and that no id collides with a lint rule's.
public enum AuditRules {
    public static let all: [any AuditRule.Type] = [
        // The app's code against its policy
        BridgeUndeclaredRule.self,
        BridgeUnregisteredRule.self,
        BridgeWorldMismatchRule.self,
        BridgeReplyMismatchRule.self,
        BridgeSenderUncheckedRule.self,
        BridgeGateOriginsDifferRule.self,
        SchemeHandlerUndeclaredRule.self,
        InterceptionUnhandledRule.self,
        InspectableInReleaseRule.self,
        JavaScriptMismatchRule.self,
        JavaScriptWindowsMismatchRule.self,
        WebViewSettingMismatchRule.self,
        FileReadAccessTooWideRule.self,
        ATSArbitraryLoadsRule.self,
        ATSArbitraryWebContentRule.self,
        ATSExceptionNotAllowlistedRule.self,
        ATSAllowlistedHostMissingRule.self,
        AppBoundPlistMismatchRule.self,
        AppBoundLimitMismatchRule.self,
        QueriesSchemesMismatchRule.self,
        WebViewUnmanagedRule.self,
        NavigationUnmanagedRule.self,
        NewWindowSecondWebViewRule.self,
        HandOffAnySchemeRule.self,
        HTMLFileBaseURLRule.self,
        // Hazards no policy makes safe
        UIWebViewRule.self,
        PrivateWebKitAPIRule.self,
        SchemeHandlerWebKitSchemeRule.self,
        URLProtocolForWebViewRule.self,
        ScriptInterpolationRule.self,
        HTMLStringNullOriginRule.self,
        FileAccessKVCRule.self,
        WebViewConfigAfterInitRule.self,
        PermissionGrantedToAnyOriginRule.self,
        PrivateKeyValueCodingRule.self,
    ]

    public static var descriptions: [RuleDescription] { all.map { $0.description } }
}
