/// The hosts `http: local-network` lets plain http reach: what App Transport Security's
/// `NSAllowsLocalNetworking` is for. Apple's documentation of the key names "unqualified
/// domains, `.local` domains, and IP addresses"
/// (developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity/nsallowslocalnetworking);
/// webpolicy reads "IP addresses" as the addresses only a local network or the device itself
/// reaches — loopback, the private ranges of RFC 1918, link-local (RFC 3927, RFC 4291) and
/// IPv6 unique local addresses (RFC 4193) — so a public address typed by the user is not the
/// local network here, though ATS's key would let it through (docs/decisions.md).
public enum LocalNetwork {
    /// Whether a canonical host (lowercase, IPv6 in brackets) is on the local network.
    public static func contains(_ host: String) -> Bool {
        if host.isEmpty { return false }
        if host.hasPrefix("[") { return isLocalIPv6(host.dropFirst().dropLast()) }
        if let address = ipv4(host) { return isLocalIPv4(address) }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        // An unqualified name (a single label: `homeassistant`, `nas`) or multicast DNS's `.local`.
        return !name.contains(".") || name.hasSuffix(".local") || name == "localhost" || name.hasSuffix(".localhost")
    }

    /// Dotted decimal, as a canonical URL writes an IPv4 host.
    private static func ipv4(_ host: String) -> UInt32? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var address: UInt32 = 0
        for part in parts {
            guard let byte = UInt8(part) else { return nil }
            address = address << 8 | UInt32(byte)
        }
        return address
    }

    private static func isLocalIPv4(_ address: UInt32) -> Bool {
        let ranges: [(base: UInt32, bits: UInt32)] = [
            (0x7F00_0000, 8),   // 127.0.0.0/8, loopback
            (0x0A00_0000, 8),   // 10.0.0.0/8, RFC 1918
            (0xAC10_0000, 12),  // 172.16.0.0/12, RFC 1918
            (0xC0A8_0000, 16),  // 192.168.0.0/16, RFC 1918
            (0xA9FE_0000, 16),  // 169.254.0.0/16, link-local (RFC 3927)
        ]
        return ranges.contains { address >> (32 - $0.bits) == $0.base >> (32 - $0.bits) }
    }

    /// `::1`, `fc00::/7` (unique local) and `fe80::/10` (link-local); the host as WebKit
    /// writes it, compressed and lowercase.
    private static func isLocalIPv6(_ address: Substring) -> Bool {
        if address == "::1" { return true }
        guard let first = address.split(separator: ":", omittingEmptySubsequences: false).first, !first.isEmpty,
              let group = UInt16(first, radix: 16) else { return false }
        return group & 0xFE00 == 0xFC00 || group & 0xFFC0 == 0xFE80
    }
}
