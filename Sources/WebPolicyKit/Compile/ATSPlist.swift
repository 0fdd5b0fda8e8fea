import Foundation
import WebPolicyRuntime

/// The http allowlist as an App Transport Security dictionary, the scheme allowlist as
/// `LSApplicationQueriesSchemes` and `app-bound-domains` as `WKAppBoundDomains`, in an XML
/// property list to merge into Info.plist (ci/xcode/merge_ats_fragment.py).
///
/// Each host gets an `NSExceptionDomains` entry with `NSExceptionAllowsInsecureHTTPLoads`, the
/// narrow exception Apple recommends over `NSAllowsArbitraryLoads*`. ATS has no
/// "subdomains only": `*.example.com` becomes `example.com` with `NSIncludesSubdomains`, which
/// also covers example.com itself. Keys are sorted, as Xcode writes them.
///
/// A `runtime-hosts` role has no host to name before run time. One that may use plain http on
/// the local network asks for `NSAllowsLocalNetworking` ("unqualified domains, `.local`
/// domains, and IP addresses", Apple's documentation of the key); one that may use plain http
/// anywhere, for `NSAllowsArbitraryLoadsInWebContent` (web views only; lint warns of it). A
/// role over https alone needs no key: ATS lets https through to any host.
public enum ATSPlist {
    public static func render(_ policy: Policy) -> String {
        var domains: [String: Bool] = [:]
        for entry in policy.httpAllowlist where entry.scope.role == nil {
            let scope = entry.scope
            domains[scope.host] = (domains[scope.host] ?? false) || scope.includesSubdomains
        }
        let plainHTTPRoles = policy.runtimeHosts.filter { $0.schemeNames.contains("http") }
        let localNetworking = plainHTTPRoles.contains { $0.httpValue == .localNetwork }
        let arbitraryWebContent = plainHTTPRoles.contains { $0.httpValue == .anywhere }
        var schemes: [String] = []
        for entry in policy.schemeAllowlist {
            let scheme = entry.scheme.value.lowercased()
            if !schemes.contains(scheme) { schemes.append(scheme) }
        }

        var body = ""
        if !domains.isEmpty || localNetworking || arbitraryWebContent {
            body += "\t<key>NSAppTransportSecurity</key>\n\t<dict>\n"
            // Sorted keys: NSAllowsArbitraryLoadsInWebContent, NSAllowsLocalNetworking, NSExceptionDomains.
            if arbitraryWebContent { body += "\t\t<key>NSAllowsArbitraryLoadsInWebContent</key>\n\t\t<true/>\n" }
            if localNetworking { body += "\t\t<key>NSAllowsLocalNetworking</key>\n\t\t<true/>\n" }
            if !domains.isEmpty {
                body += "\t\t<key>NSExceptionDomains</key>\n\t\t<dict>\n"
                for domain in domains.keys.sorted() {
                    body += "\t\t\t<key>\(escape(domain))</key>\n\t\t\t<dict>\n"
                    body += "\t\t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>\n\t\t\t\t<true/>\n"
                    if domains[domain] == true { body += "\t\t\t\t<key>NSIncludesSubdomains</key>\n\t\t\t\t<true/>\n" }
                    body += "\t\t\t</dict>\n"
                }
                body += "\t\t</dict>\n"
            }
            body += "\t</dict>\n"
        }
        if !schemes.isEmpty {
            body += "\t<key>LSApplicationQueriesSchemes</key>\n\t<array>\n"
            for scheme in schemes { body += "\t\t<string>\(escape(scheme))</string>\n" }
            body += "\t</array>\n"
        }
        // As written and in order: WebKit reads the first ten (lint says so past ten).
        if let domains = policy.appBoundDomains?.domains?.value {
            body += "\t<key>WKAppBoundDomains</key>\n\t<array>\n"
            for domain in domains { body += "\t\t<string>\(escape(domain.value))</string>\n" }
            body += "\t</array>\n"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body.isEmpty ? "<dict/>\n" : "<dict>\n\(body)</dict>\n")</plist>

        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
