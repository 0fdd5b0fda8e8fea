import Foundation

/// A URL as WebKit canonicalises it before content rules see it (`WTF::URLParser`, the WHATWG
/// URL standard): lowercase scheme and host, international hosts in punycode, IPv4 numbers in
/// dotted decimal, the scheme's default port dropped, dot segments removed, characters outside
/// the path/query sets percent-encoded (escapes already present kept as written), an empty
/// path of a special scheme made `/`.
///
/// `requestString` is what content rules match: the URL without its fragment, which a request
/// never carries (seen on a real WebKit: `…/x#blockme` is not blocked by `blockme`).
public struct CanonicalURL: Sendable, Hashable, CustomStringConvertible {
    /// The parts of a URL, as the parser builds them.
    struct Parts: Sendable, Hashable {
        var scheme: String
        var userInfo = ""
        var host: String?
        var port: Int?
        var path: String
        var query: String?
        var fragment: String?
    }

    /// Shared by every copy: a trace hands one URL to many loads and results, and a copy
    /// should cost one reference count, not one per string.
    private final class Storage: Sendable {
        let parts: Parts
        let requestString: String
        let description: String

        init(_ parts: Parts) {
            self.parts = parts
            var text = parts.scheme + ":"
            if let host = parts.host {
                text += "//" + parts.userInfo + host
                if let port = parts.port { text += ":\(port)" }
            }
            text += parts.path
            if let query = parts.query { text += "?" + query }
            requestString = text
            description = parts.fragment.map { text + "#" + $0 } ?? text
        }
    }

    private let storage: Storage

    init(_ parts: Parts) { storage = Storage(parts) }

    public var scheme: String { storage.parts.scheme }
    /// `user:password@`, as written, or empty.
    public var userInfo: String { storage.parts.userInfo }
    /// nil for URLs without an authority (`mailto:`, `data:`).
    public var host: String? { storage.parts.host }
    /// nil when absent or the scheme's default.
    public var port: Int? { storage.parts.port }
    public var path: String { storage.parts.path }
    public var query: String? { storage.parts.query }
    public var fragment: String? { storage.parts.fragment }
    /// The URL a request carries: no fragment. Built once; matchers read it for every rule list.
    public var requestString: String { storage.requestString }
    /// The whole canonical URL, fragment included.
    public var description: String { storage.description }

    public static func == (left: CanonicalURL, right: CanonicalURL) -> Bool {
        left.storage === right.storage || left.storage.parts == right.storage.parts
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.parts) }

    public static let specialSchemes: [String: Int?] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": nil]

    public var isSpecial: Bool { Self.specialSchemes[scheme] != nil }


    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        /// Scalar offset in the input where the problem is.
        public var offset: Int
    }

    /// The URL of a new frame's or view's initial empty document.
    public static let aboutBlank = try! parse("about:blank").get()

    public static func parse(_ input: String) -> Result<CanonicalURL, ParseError> {
        if let simple = parseSimple(input) { return .success(simple) }
        return parseFully(input)
    }

    /// The WHATWG parser for every URL, simple or not.
    package static func parseFully(_ input: String) -> Result<CanonicalURL, ParseError> {
        var parser = Parser(input)
        do {
            return .success(try parser.parse())
        } catch let error as ParseError {
            return .failure(error)
        } catch {
            return .failure(ParseError(message: "\(error)", offset: 0))
        }
    }

    /// The URL as a request carries it, without its fragment.
    package var withoutFragment: CanonicalURL {
        guard storage.parts.fragment != nil else { return self }
        var parts = storage.parts
        parts.fragment = nil
        return CanonicalURL(parts)
    }

    /// The same URL with another scheme and port (what `make-https` makes of it).
    package func upgraded(to newScheme: String) -> CanonicalURL {
        var parts = storage.parts
        parts.scheme = newScheme
        parts.port = nil
        return CanonicalURL(parts)
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        /// Offsets of `scalars` in the original input (tabs and newlines are removed first).
        let offsets: [Int]

        init(_ input: String) {
            var kept: [Unicode.Scalar] = []
            var offsets: [Int] = []
            let all = Array(input.unicodeScalars)
            var start = 0
            var end = all.count
            while start < end, all[start].value <= 0x20 { start += 1 }
            while end > start, all[end - 1].value <= 0x20 { end -= 1 }
            for index in start..<end where all[index] != "\t" && all[index] != "\n" && all[index] != "\r" {
                kept.append(all[index])
                offsets.append(index)
            }
            scalars = kept
            self.offsets = offsets
        }

        func fail(_ message: String, at index: Int) -> ParseError {
            ParseError(message: message, offset: index < offsets.count ? offsets[index] : (offsets.last.map { $0 + 1 } ?? 0))
        }

        mutating func parse() throws -> CanonicalURL {
            guard let colon = scalars.firstIndex(of: ":") else {
                throw fail("not an absolute URL: there is no scheme (like https:)", at: 0)
            }
            let schemeText = String(String.UnicodeScalarView(scalars[..<colon]))
            guard let scheme = WebKitURL.canonicalScheme(schemeText), colon > 0 else {
                throw fail("'\(schemeText)' is not a URL scheme: a letter, then letters, digits, '+', '-' or '.'", at: 0)
            }
            var index = colon + 1
            var url = Parts(scheme: scheme, path: "")
            let special = CanonicalURL.specialSchemes[scheme] != nil
            func isSeparator(_ scalar: Unicode.Scalar) -> Bool { scalar == "/" || (special && scalar == "\\") }

            let hasAuthority: Bool
            if special && scheme != "file" {
                while index < scalars.count, isSeparator(scalars[index]) { index += 1 }
                hasAuthority = true
            } else if index + 1 < scalars.count, scalars[index] == "/", scalars[index + 1] == "/" {
                index += 2
                hasAuthority = true
            } else {
                hasAuthority = false
            }

            if hasAuthority {
                let authorityStart = index
                while index < scalars.count, !isSeparator(scalars[index]), scalars[index] != "?", scalars[index] != "#" { index += 1 }
                var authority = Array(scalars[authorityStart..<index])
                var hostStart = authorityStart
                if let at = authority.lastIndex(of: "@") {
                    url.userInfo = encode(authority[...at], keeping: Self.userInfoSafe)
                    hostStart += at + 1
                    authority = Array(authority[(at + 1)...])
                }
                var hostScalars = authority
                var portText: [Unicode.Scalar]?
                if let close = authority.firstIndex(of: "]"), authority.first == "[" {
                    hostScalars = Array(authority[...close])
                    if close + 1 < authority.count {
                        guard authority[close + 1] == ":" else { throw fail("unexpected characters after the IPv6 address", at: hostStart + close + 1) }
                        portText = Array(authority[(close + 2)...])
                    }
                } else if authority.first != "[", let portColon = authority.firstIndex(of: ":") {
                    // The first colon ends the host (WHATWG host state; WebKit `URLParser::parseHostAndPort`):
                    // `hs://a:b:/` has the port `b:`, which fails, not the host `a:b`. (An unclosed
                    // `[` is the host parser's to refuse.)
                    hostScalars = Array(authority[..<portColon])
                    portText = Array(authority[(portColon + 1)...])
                }
                if let portText, !portText.isEmpty {
                    guard portText.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(String(String.UnicodeScalarView(portText))), port <= 65535 else {
                        throw fail("the port '\(String(String.UnicodeScalarView(portText)))' is not a number from 0 to 65535", at: hostStart + hostScalars.count + 1)
                    }
                    url.port = CanonicalURL.specialSchemes[scheme].flatMap { $0 } == port ? nil : port
                }
                if special {
                    guard !hostScalars.isEmpty || scheme == "file" else { throw fail("a \(scheme) URL needs a host", at: hostStart) }
                    url.host = try canonicalHost(hostScalars, at: hostStart)
                } else {
                    // Opaque hosts keep their case (WHATWG "opaque-host parser"), and refuse the
                    // forbidden host code points (WebKit `isForbiddenHostCodePoint`).
                    if let bad = hostScalars.firstIndex(where: { Self.forbiddenInOpaqueHost.contains($0) }) {
                        throw fail("the host contains '\(hostScalars[bad])', which a host may not", at: hostStart + bad)
                    }
                    url.host = encode(hostScalars[...], keeping: Self.pathSafe)
                }
            } else if scheme == "file" {
                url.host = ""
            }

            let pathStart = index
            while index < scalars.count, scalars[index] != "?", scalars[index] != "#" { index += 1 }
            let rawPath = Array(scalars[pathStart..<index])
            if hasAuthority || special {
                url.path = normalizedPath(rawPath, special: special)
            } else {
                url.path = encode(rawPath[...], keeping: Self.opaquePathSafe)  // an opaque path: mailto:x@example.com
            }
            if index < scalars.count, scalars[index] == "?" {
                let queryStart = index + 1
                index = queryStart
                while index < scalars.count, scalars[index] != "#" { index += 1 }
                url.query = encode(scalars[queryStart..<index], keeping: special ? Self.specialQuerySafe : Self.querySafe)
            }
            if index < scalars.count, scalars[index] == "#" {
                url.fragment = encode(scalars[(index + 1)...], keeping: Self.fragmentSafe)
            }
            return CanonicalURL(url)
        }

        /// WHATWG host parsing for special schemes: percent-decoding, IDNA (to punycode,
        /// lowercased), IPv4 numbers, IPv6 literals.
        func canonicalHost(_ host: [Unicode.Scalar], at start: Int) throws -> String {
            if host.first == "[" {
                guard host.last == "]", let address = IPv6.canonical(String(String.UnicodeScalarView(host.dropFirst().dropLast()))) else {
                    throw fail("'\(String(String.UnicodeScalarView(host)))' is not a valid IPv6 address", at: start)
                }
                return "[" + address + "]"
            }
            let decoded = percentDecoded(String(String.UnicodeScalarView(host)))
            let forbidden = Set(" #%/:<>?@[\\]^|".unicodeScalars)
            if let bad = decoded.unicodeScalars.first(where: { forbidden.contains($0) || $0.value < 0x20 || $0.value == 0x7F }) {
                throw fail("the host holds the character '\(bad.escaped(asASCII: true))', which no host may contain", at: start)
            }
            let ascii: String
            if decoded.unicodeScalars.allSatisfy(\.isASCII) {
                ascii = decoded.lowercased()
            } else {
                guard let encoded = Punycode.toASCII(host: decoded) else { throw fail("the host '\(decoded)' cannot be written in punycode", at: start) }
                ascii = encoded
            }
            if let ipv4 = IPv4.canonical(ascii) { return ipv4 }
            if IPv4.endsInNumber(ascii) { throw fail("'\(ascii)' looks like an IPv4 address but is not a valid one", at: start) }
            return ascii
        }

        /// Dot segments resolved (`.`, `..`, and their `%2e` spellings), `\` read as `/` in
        /// special URLs, characters outside the path set percent-encoded.
        func normalizedPath(_ raw: [Unicode.Scalar], special: Bool) -> String {
            var segments: [String] = []
            var text = raw
            if special { text = text.map { $0 == "\\" ? "/" : $0 } }
            if text.first == "/" { text.removeFirst() } else if text.isEmpty { return special ? "/" : "" }
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            for (position, part) in parts.enumerated() {
                let lowered = String(String.UnicodeScalarView(part)).lowercased()
                let isLast = position == parts.count - 1
                if lowered == "." || lowered == "%2e" {
                    if isLast { segments.append("") }
                } else if [".." , ".%2e", "%2e.", "%2e%2e"].contains(lowered) {
                    if !segments.isEmpty { segments.removeLast() }
                    if isLast { segments.append("") }
                } else {
                    segments.append(encode(part[...], keeping: Self.pathSafe))
                }
            }
            return "/" + segments.joined(separator: "/")
        }

        func encode<S: Sequence>(_ scalars: S, keeping safe: (Unicode.Scalar) -> Bool) -> String where S.Element == Unicode.Scalar {
            var output = ""
            for scalar in scalars {
                if scalar.isASCII && safe(scalar) {
                    output.unicodeScalars.append(scalar)
                } else {
                    for byte in String(scalar).utf8 { output += String(format: "%%%02X", byte) }
                }
            }
            return output
        }

        func percentDecoded(_ text: String) -> String {
            let bytes = Array(text.utf8)
            var output: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                   let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                    output.append(value)
                    index += 3
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        // WHATWG percent-encode sets, as "what stays": C0 controls, space and the listed
        // characters are encoded; `%` stays, so escapes already present are kept as written.
        static func c0Safe(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x20 && scalar.value < 0x7F }
        static func fragmentSafe(_ scalar: Unicode.Scalar) -> Bool { c0Safe(scalar) && !"\"<>`".unicodeScalars.contains(scalar) }
        static func querySafe(_ scalar: Unicode.Scalar) -> Bool { c0Safe(scalar) && !"\"#<>".unicodeScalars.contains(scalar) }
        static func specialQuerySafe(_ scalar: Unicode.Scalar) -> Bool { querySafe(scalar) && scalar != "'" }
        static func pathSafe(_ scalar: Unicode.Scalar) -> Bool { querySafe(scalar) && !"?^`{}".unicodeScalars.contains(scalar) }
        /// What an opaque host may not hold beyond the authority's own delimiters.
        static let forbiddenInOpaqueHost: Set<Unicode.Scalar> = ["\u{0}", "\t", "\n", "\r", " ", "<", ">", "[", "\\", "]", "^", "|"]

        static func userInfoSafe(_ scalar: Unicode.Scalar) -> Bool { pathSafe(scalar) && !"/:;=@[\\]|".unicodeScalars.contains(scalar) || scalar == ":" || scalar == "@" }
        static func opaquePathSafe(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x20 && scalar.value < 0x7F }
    }
}

/// WHATWG IPv4 parsing: up to four parts, decimal, `0x` hex or `0` octal; the last part fills
/// the remaining bytes. Serialised as dotted decimal.
package enum IPv4 {
    package static func endsInNumber(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last == "", labels.count > 1 { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        return last.lowercased().hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    package static func canonical(_ host: String) -> String? {
        guard endsInNumber(host) else { return nil }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if labels.last == "", labels.count > 1 { labels.removeLast() }
        guard labels.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            guard let number = number(label) else { return nil }
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }), let last = numbers.last,
              last < (UInt64(1) << (8 * UInt64(5 - numbers.count))) else { return nil }
        var value = last
        for (index, number) in numbers.dropLast().enumerated() { value += number << (8 * UInt64(3 - index)) }
        return (0..<4).map { String((value >> (8 * UInt64(3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    private static func number(_ text: String) -> UInt64? {
        let lower = text.lowercased()
        if lower.isEmpty { return nil }
        if lower.hasPrefix("0x") { return lower.count == 2 ? 0 : UInt64(lower.dropFirst(2), radix: 16) }
        if lower.hasPrefix("0"), lower.count > 1 { return UInt64(lower.dropFirst(), radix: 8) }
        return UInt64(lower, radix: 10)
    }
}

/// WHATWG IPv6 parsing and serialisation: eight hexadecimal pieces, the longest run of two or
/// more zero pieces written `::`, lowercase.
enum IPv6 {
    package static func canonical(_ text: String) -> String? {
        var pieces: [UInt16] = []
        var compressAt: Int?
        let parts = text.lowercased().components(separatedBy: "::")
        guard parts.count <= 2 else { return nil }
        for (partIndex, part) in parts.enumerated() {
            if partIndex == 1 { compressAt = pieces.count }
            guard !part.isEmpty else { continue }
            var groups = part.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if let last = groups.last, last.contains(".") {
                guard let ipv4 = IPv4.canonical(last), !last.lowercased().contains("x") else { return nil }
                let bytes = ipv4.split(separator: ".").compactMap { UInt16($0) }
                groups.removeLast()
                for group in groups {
                    guard let piece = piece(group) else { return nil }
                    pieces.append(piece)
                }
                pieces.append(bytes[0] << 8 | bytes[1])
                pieces.append(bytes[2] << 8 | bytes[3])
                continue
            }
            for group in groups {
                guard let piece = piece(group) else { return nil }
                pieces.append(piece)
            }
        }
        if let compressAt {
            guard pieces.count < 8 else { return nil }
            pieces.insert(contentsOf: [UInt16](repeating: 0, count: 8 - pieces.count), at: compressAt)
        }
        guard pieces.count == 8 else { return nil }
        // The longest run of zeros (two or more), first on ties.
        var bestStart = -1, bestLength = 1, runStart = -1
        for index in 0...8 {
            if index < 8 && pieces[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        var output = ""
        var index = 0
        while index < 8 {
            if index == bestStart {
                output += index == 0 ? "::" : ":"
                index += bestLength
                continue
            }
            output += String(pieces[index], radix: 16)
            if index < 7 { output += ":" }
            index += 1
        }
        return output
    }

    private static func piece(_ group: String) -> UInt16? {
        guard !group.isEmpty, group.count <= 4 else { return nil }
        return UInt16(group, radix: 16)
    }
}
