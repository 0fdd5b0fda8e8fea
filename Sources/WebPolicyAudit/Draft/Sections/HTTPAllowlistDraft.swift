import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of http-allowlist: the hosts ATS lets load over http, each with the reason the team
/// must give.
extension PolicyDraft.Builder {
    mutating func httpAllowlist(into document: inout DraftDocument) {
        var hosts: [(String, Bool, String)] = []
        for plist in plists {
            for exception in plist.transportSecurity?.exceptionDomains ?? [] where exception.allowsInsecureHTTPLoads?.value == true {
                let domain = exception.domain.value.lowercased()
                guard !["localhost", "127.0.0.1", "::1"].contains(domain), !InfoPlist.isPlaceholder(domain), PolicyDraft.isHost(domain),
                      !hosts.contains(where: { $0.0 == domain }) else { continue }
                hosts.append((domain, exception.includesSubdomains, plist.path))
            }
        }
        var comments: [String] = []
        let arbitrary = plists.compactMap { plist -> String? in
            guard let security = plist.transportSecurity else { return nil }
            if let key = security.allowsArbitraryLoads, key.value, !security.arbitraryLoadsIgnored { return "NSAllowsArbitraryLoads in \(plist.path):\(key.location.range.start.line)" }
            if let key = security.allowsArbitraryLoadsInWebContent, key.value { return "NSAllowsArbitraryLoadsInWebContent in \(plist.path):\(key.location.range.start.line)" }
            return nil
        }
        if !arbitrary.isEmpty {
            let places = arbitrary.count > 3 ? arbitrary.prefix(2).joined(separator: ", ") + " and \(arbitrary.count - 2) more" : SchemeScope.list(arbitrary)
            comments.append(decide("App Transport Security is off for every host (\(places)). The draft allows plain http only to the hosts listed here; "
                + "remove the key and merge the ATS fragment `webpolicy compile` writes, or keep it with a reason above it: <!-- webpolicy:disable-next-line ats-arbitrary-loads -- why -->"))
        }
        guard !hosts.isEmpty else {
            if !comments.isEmpty { document.add("http-allowlist", .array([]), comments: comments) }
            return
        }
        comments.insert("From NSExceptionAllowsInsecureHTTPLoads in the Info.plists.", at: 0)
        let items = hosts.sorted { $0.0 < $1.0 }.map { host, subdomains, path -> (comments: [String], value: JSONValue) in
            var fields: [(String, JSONValue)] = [("host", .string(host))]
            if subdomains { fields.append(("include-subdomains", .bool(true))) }
            fields.append(("reason", .string("allowed over plain http in \(path); say why")))
            return ([], .object(fields))
        }
        document.add("http-allowlist", items: items, comments: comments)
    }
}
