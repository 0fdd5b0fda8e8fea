import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of app-bound-domains: WKAppBoundDomains and the limit the code sets.
extension PolicyDraft.Builder {
    /// `WKAppBoundDomains`, and the limit the code sets. With bridges, WebKit hides every
    /// handler unless navigations are limited: the draft limits them, and says where the
    /// code does not.
    mutating func appBoundDomains(into document: inout DraftDocument) {
        let appBound = plists.compactMap(\.appBoundDomains).flatMap(\.domains).map { $0.value.lowercased() }.filter { !InfoPlist.isPlaceholder($0) }
        guard !appBound.isEmpty else { return }
        var unique: [String] = []
        for domain in appBound where !unique.contains(domain) { unique.append(domain) }
        var fields: [(String, JSONValue)] = [("domains", .array(unique.map(JSONValue.string)))]
        var limit = literal([.limitsNavigationsToAppBoundDomains], name: "limitsNavigationsToAppBoundDomains")
        var comments = ["From WKAppBoundDomains in the Info.plist."]
        if limit != true, bridgeCount > 0 {
            let places = subject.settings(.limitsNavigationsToAppBoundDomains).filter { $0.fact.site.inRelease }.map { Self.place($0.fact.site) }
            comments.append(decide("WKAppBoundDomains is set and the app has message handlers, which WebKit hides unless navigations are limited: the draft says limit-navigations: true"
                + (places.isEmpty ? "" : "; the code says otherwise at \(places.joined(separator: ", "))")))
            limit = true
        }
        if let limit { fields.append(("limit-navigations", .bool(limit))) }
        document.add("app-bound-domains", .object(fields), comments: comments)
    }
}
