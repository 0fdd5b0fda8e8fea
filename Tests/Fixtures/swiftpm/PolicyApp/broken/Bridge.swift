#if canImport(WebKit)
import WebKit

func installDebugBridge(_ controller: WKUserContentController, handler: WKScriptMessageHandler) {
    controller.add(handler, name: "debugLog")
}
#endif
