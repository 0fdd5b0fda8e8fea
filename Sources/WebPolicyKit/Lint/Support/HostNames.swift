import WebPolicyRuntime

/// Small facts about host names that several rules share.
enum HostNames {
    /// An IPv4 address in canonical dotted-quad form, or an IPv6 address, bracketed or not
    /// (the forms host-syntax lets through).
    static func isIPAddress(_ host: String) -> Bool {
        IPv4.canonical(host) == host || HostPatternAnalysis.isIPv6Literal(Array(host.unicodeScalars))
    }

}
