import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of interception: the schemes the app answers itself.
extension PolicyDraft.Builder {
    mutating func interception(into document: inout DraftDocument) {
        var intercepted: [String: String] = [:]
        var comments = ["From setURLSchemeHandler(_:forURLScheme:) and a page's urlSchemeHandlers: the app's own handlers answer these."]
        for (fact, handler) in subject.schemeHandlers where fact.site.inRelease {
            guard let scheme = handler.scheme?.stringValue?.lowercased(), WebKitSchemes.acceptsHandler(for: scheme), PolicyDraft.isScheme(scheme) else {
                if let scheme = handler.scheme, scheme.stringValue == nil {
                    warnings.append("\(Self.place(fact.site)): a scheme handler is registered for \(scheme.quoted), which the source does not spell out: add its interception entry by hand")
                } else if let scheme = handler.scheme?.stringValue?.lowercased(), !WebKitSchemes.acceptsHandler(for: scheme) {
                    // No policy can intercept a scheme WebKit handles: the draft leaves it out and says why.
                    let failure = handler.viaURLScheme ? "URLScheme(\"\(scheme)\") is nil and its force-unwrap traps" : "the call raises NSInvalidArgumentException"
                    comments.append(decide("a handler is registered for '\(scheme)' (\(Self.place(fact.site))), a scheme WebKit handles itself: \(failure); serve that content under a scheme of the app's own"))
                }
                continue
            }
            intercepted[scheme] = intercepted[scheme] ?? PolicyDraft.handlerName(handler.handler)
        }
        let items = intercepted.sorted { $0.key < $1.key }.map { scheme, handler -> (comments: [String], value: JSONValue) in
            ([], .object([("scheme", .string(scheme)), ("handler", .string(handler))]))
        }
        document.add("interception", items: items, comments: comments)
    }
}
