import Foundation

/// The parts of WebKit's URL handling (`WTF::URLParser`) that decide whether a content-blocker
/// redirect is accepted. `isValid` follows the WHATWG URL standard for an absolute URL with no
/// base closely enough to agree with WebKit on the shapes redirects use: a scheme, and for the
/// special schemes a host that parses (IPv4 numbers, IPv6 brackets, no forbidden characters)
/// and a port up to 65535.
public enum WebKitURL {
    static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]

    /// `URLParser::maybeCanonicalizeScheme`: tabs and newlines removed, a letter then letters,
    /// digits, `+`, `-`, `.`, lowercased; nil when that fails.
    public static func canonicalScheme(_ text: String) -> String? {
        let scalars = text.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        guard let first = scalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        guard scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }) else { return nil }
        return String(String.UnicodeScalarView(scalars)).lowercased()
    }

    /// The scheme of an absolute URL, lowercased.
    public static func scheme(of url: String) -> String? {
        guard let colon = trimmed(url).firstIndex(of: ":") else { return nil }
        return canonicalScheme(String(trimmed(url)[..<colon]))
    }

    /// `parseInteger<uint16_t>`: decimal digits, at most 65535.
    public static func port(_ text: String) -> UInt16? {
        var digits = Substring(text)
        if digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt16(digits)
    }

    /// Leading and trailing C0 controls and spaces go, as the URL parser strips them.
    private static func trimmed(_ url: String) -> Substring {
        let scalars = url.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].value <= 0x20 { start = scalars.index(after: start) }
        while end > start, scalars[scalars.index(before: end)].value <= 0x20 { end = scalars.index(before: end) }
        return Substring(scalars[start..<end])
    }

    public static func isValid(_ url: String) -> Bool {
        let text = String(trimmed(url)).replacingAll(["\t", "\n", "\r"])
        guard let colon = text.firstIndex(of: ":"), let scheme = canonicalScheme(String(text[..<colon])) else { return false }
        var rest = text[text.index(after: colon)...]
        guard specialSchemes.contains(scheme) else { return true }  // An opaque path parses whatever follows.
        if scheme == "file" { return true }
        rest = rest.drop { $0 == "/" || $0 == "\\" }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "\\" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        if !authority.hasPrefix("["), let portColon = authority.lastIndex(of: ":") {
            host = authority[..<portColon]
            let port = authority[authority.index(after: portColon)...]
            if !port.isEmpty && WebKitURL.port(String(port)) == nil { return false }
        } else if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":", after.count == 1 || WebKitURL.port(String(after.dropFirst())) != nil else { return false }
            }
        }
        return isValidHost(String(host))
    }

    static func isValidHost(_ host: String) -> Bool {
        guard !host.isEmpty else { return false }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return false }
            let inner = host.dropFirst().dropLast()
            return inner.contains(":") && inner.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let forbidden = Set(" #%/:<>?@[\\]^|".unicodeScalars)
        guard !host.unicodeScalars.contains(where: { forbidden.contains($0) || $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        // "Ends in a number": the last label decides whether the host is an IPv4 address.
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last == "" && labels.count > 1 { labels.removeLast() }
        guard let last = labels.last, isIPv4Number(last) else { return true }
        guard labels.count <= 4 else { return false }
        return labels.allSatisfy(isIPv4Number)
    }

    /// A WHATWG IPv4 number: decimal, `0x` hexadecimal or `0` octal, never empty.
    private static func isIPv4Number(_ part: Substring) -> Bool {
        if part.isEmpty { return false }
        let lower = part.lowercased()
        if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy(\.isHexDigit) }
        if lower.hasPrefix("0") && lower.count > 1 { return lower.dropFirst().allSatisfy { ("0"..."7").contains($0) } }
        return lower.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

private extension String {
    func replacingAll(_ characters: [Character]) -> String {
        String(filter { !characters.contains($0) })
    }
}
