/// Small facts about host names that several rules share.
enum HostNames {
    /// A dotted-quad IPv4 address or an IPv6 address, bracketed or not.
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "[" || $0 == "]" || $0 == "/" } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
    }

    /// `host` is `domain` or one of its subdomains.
    static func isWithin(_ host: String, _ domain: String) -> Bool {
        host == domain || host.hasSuffix("." + domain)
    }
}
