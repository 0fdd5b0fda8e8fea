/// WebKit's URL parser (`WTF::URLParser`, Source/WTF/wtf/URLParser.cpp) for absolute URLs —
/// the parser that hands content rules their URL, and the one `new URL()` uses — ported state
/// by state: the WHATWG URL standard's state machine, with WebKit's own ways where it departs
/// from the standard (its IDNA through ICU's UTS #46 with `allowedNameToASCIIErrors`, its
/// `xn--` check of ASCII hosts, its file-URL ports, its "/." before a non-special path that
/// starts with "//"). A trace's URLs have no base, so the states that resolve against one
/// (relative, no scheme) end in failure here, as `new URL(input)` does.
///
/// Like WebKit it writes the canonical URL into one ASCII buffer and keeps the offsets where
/// each part ends (`schemeEnd`, `userStart`, …); `parts` reads the parts off them. Checked
/// against WebKitGTK's answers on the web-platform-tests URL and IDNA suites
/// (Tests/Fixtures/url, `URLConformanceTests`, ci/webkit-conformance/url_conformance.py).
struct WebKitURLParser {
    /// The input without leading and trailing C0 controls and spaces, and without tabs and
    /// newlines anywhere (WebKit skips them as it reads: the same code points remain).
    private let input: [Unicode.Scalar]
    /// Each kept scalar's offset in the caller's input, for error positions.
    private let offsets: [Int]
    private var index = 0

    private var buffer: [UInt8] = []
    private var schemeEnd = 0
    private var userStart = 0
    private var userEnd = 0
    private var passwordEnd = 0
    private var hostEnd = 0
    private var portLength = 0
    private var pathAfterLastSlash = 0
    private var pathEnd = 0
    private var queryEnd = 0
    private var isSpecial = false
    private var isFile = false
    private var hostHasPercentOrNonASCII = false
    private var hasOpaquePath = false

    /// `URL::maxSchemeLength`.
    private static let maximumSchemeLength = 1_048_576

    init(_ text: String) {
        let all = Array(text.unicodeScalars)
        var start = 0, end = all.count
        while start < end, all[start].value <= 0x20 { start += 1 }
        while end > start, all[end - 1].value <= 0x20 { end -= 1 }
        var kept: [Unicode.Scalar] = []
        var offsets: [Int] = []
        kept.reserveCapacity(end - start)
        for position in start..<end where !Self.isTabOrNewline(all[position]) {
            kept.append(all[position])
            offsets.append(position)
        }
        input = kept
        self.offsets = offsets
    }

    private static func isTabOrNewline(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar == "\n" || scalar == "\r" }

    private func fail(_ message: String, at position: Int) -> CanonicalURL.ParseError {
        CanonicalURL.ParseError(message: message, offset: position < offsets.count ? offsets[position] : (offsets.last.map { $0 + 1 } ?? 0))
    }

    private var atEnd: Bool { index >= input.count }
    private var current: Unicode.Scalar { input[index] }
    private func scalar(at position: Int) -> Unicode.Scalar? { position < input.count ? input[position] : nil }

    private mutating func append(_ byte: UInt8) { buffer.append(byte) }
    private mutating func append(_ text: String) { buffer += Array(text.utf8) }

    private enum State {
        case schemeStart, scheme, pathOrAuthority, specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authorityOrHost, host
        case file, fileSlash, fileHost, filePathStart, pathStart, path, opaquePath, query, fragment
    }

    mutating func parse() throws(CanonicalURL.ParseError) -> CanonicalURL.Parts {
        var state = State.schemeStart
        var authorityOrHostBegin = 0
        while !atEnd {
            let c = current
            switch state {
            case .schemeStart:
                guard Self.isASCIIAlpha(c) else { throw fail("not an absolute URL: there is no scheme (like https:)", at: 0) }
                append(Self.lowercased(c))
                index += 1
                if atEnd { throw fail("not an absolute URL: there is no scheme (like https:)", at: 0) }
                state = .scheme
            case .scheme:
                if Self.isSchemeCharacter(c) {
                    append(Self.lowercased(c))
                    index += 1
                    if atEnd { throw fail("not an absolute URL: there is no scheme (like https:)", at: 0) }
                } else if c == ":" {
                    guard buffer.count <= Self.maximumSchemeLength else { throw fail("the scheme is too long", at: 0) }
                    schemeEnd = buffer.count
                    append(UInt8(ascii: ":"))
                    switch String(decoding: buffer[0..<schemeEnd], as: UTF8.self) {
                    case "file":
                        isSpecial = true
                        isFile = true
                        state = .file
                        index += 1
                    case "http", "https", "ws", "wss", "ftp":
                        isSpecial = true
                        // No base: `base.protocolIs(scheme)` never holds.
                        state = .specialAuthoritySlashes
                        index += 1
                    default:
                        if scalar(at: index + 1) == "/" {
                            append(UInt8(ascii: "/"))
                            index += 2
                            userStart = buffer.count
                            state = .pathOrAuthority
                        } else {
                            index += 1
                            userStart = buffer.count
                            (userEnd, passwordEnd, hostEnd, portLength, pathAfterLastSlash) = (userStart, userStart, userStart, 0, userStart)
                            hasOpaquePath = true
                            state = .opaquePath
                        }
                    }
                } else {
                    throw fail(Self.isASCIIAlpha(input[0]) ? "'\(String(String.UnicodeScalarView(input[0..<index])))\(c)' does not start with a URL scheme: a letter, then letters, digits, '+', '-' or '.', then ':'"
                               : "not an absolute URL: there is no scheme (like https:)", at: 0)
                }
            case .pathOrAuthority:
                if c == "/" {
                    append(UInt8(ascii: "/"))
                    state = .authorityOrHost
                    index += 1
                    userStart = buffer.count
                    authorityOrHostBegin = index
                } else {
                    userStart = buffer.count - 1
                    (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                    pathAfterLastSlash = userStart + 1
                    state = .path
                }
            case .specialAuthoritySlashes:
                if c == "/" || c == "\\" {
                    append(UInt8(ascii: "/"))
                    index += 1
                    if let next = scalar(at: index), next == "/" || next == "\\" { index += 1 }
                    append(UInt8(ascii: "/"))
                } else {
                    append("//")
                }
                state = .specialAuthorityIgnoreSlashes
            case .specialAuthorityIgnoreSlashes:
                if c == "/" || c == "\\" {
                    index += 1
                } else {
                    userStart = buffer.count
                    state = .authorityOrHost
                    authorityOrHostBegin = index
                }
            case .authorityOrHost:
                if c == "@" {
                    // The last '@' before the authority ends is the one.
                    var lastAt = index
                    var find = index
                    while find < input.count {
                        let scalar = input[find]
                        if scalar == "@" { lastAt = find }
                        if scalar == "/" || (isSpecial && scalar == "\\") || scalar == "?" || scalar == "#" { break }
                        find += 1
                    }
                    parseAuthority(authorityOrHostBegin..<lastAt)
                    index = lastAt + 1
                    authorityOrHostBegin = index
                    state = .host
                    hostHasPercentOrNonASCII = false
                    continue
                }
                if Self.endsAuthority(c, special: isSpecial) {
                    if authorityOrHostBegin == index {
                        if isSpecial { throw fail("a \(scheme) URL needs a host", at: index) }
                        userEnd = buffer.count
                        (passwordEnd, hostEnd, portLength, pathAfterLastSlash) = (userEnd, userEnd, 0, userEnd)
                    } else {
                        userEnd = buffer.count
                        passwordEnd = userEnd
                        try parseHostAndPort(authorityOrHostBegin..<index)
                        if c != "/" && !(isSpecial && c == "\\") {
                            if isSpecial { append(UInt8(ascii: "/")) }
                            pathAfterLastSlash = buffer.count
                        }
                    }
                    state = .path
                    continue
                }
                if c == "%" || !c.isASCII { hostHasPercentOrNonASCII = true }
                index += 1
            case .host:
                if Self.endsAuthority(c, special: isSpecial) {
                    try parseHostAndPort(authorityOrHostBegin..<index)
                    if c == "?" || c == "#" {
                        append(UInt8(ascii: "/"))
                        pathAfterLastSlash = buffer.count
                    }
                    state = .path
                    continue
                }
                if c == "%" || !c.isASCII { hostHasPercentOrNonASCII = true }
                index += 1
            case .file:
                switch c {
                case "/", "\\":
                    append(UInt8(ascii: "/"))
                    state = .fileSlash
                    index += 1
                case "?":
                    append("///?")
                    index += 1
                    userStart = buffer.count - 2
                    (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                    pathAfterLastSlash = userStart + 1
                    pathEnd = pathAfterLastSlash
                    state = .query
                case "#":
                    append("///#")
                    userStart = buffer.count - 2
                    (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                    pathAfterLastSlash = userStart + 1
                    pathEnd = pathAfterLastSlash
                    queryEnd = pathAfterLastSlash
                    state = .fragment
                    index += 1
                default:
                    append("///")
                    userStart = buffer.count - 1
                    (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                    pathAfterLastSlash = hostEnd + 1
                    if isWindowsDriveLetter(at: index) { appendWindowsDriveLetter() }
                    state = .path
                }
            case .fileSlash:
                if c == "/" || c == "\\" {
                    append(UInt8(ascii: "/"))
                    index += 1
                    userStart = buffer.count
                    (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                    authorityOrHostBegin = index
                    state = .fileHost
                    continue
                }
                append("//")
                userStart = buffer.count - 1
                (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                if isWindowsDriveLetter(at: index) {
                    appendWindowsDriveLetter()
                }
                pathAfterLastSlash = hostEnd + 1
                state = .path
            case .fileHost:
                if c == "/" || c == "\\" || c == "?" || c == "#" {
                    let windowsQuirk = index - authorityOrHostBegin == 2 && isWindowsDriveLetter(at: authorityOrHostBegin)
                    if windowsQuirk {
                        append(UInt8(ascii: "/"))
                        let saved = index
                        index = authorityOrHostBegin
                        appendWindowsDriveLetter()
                        index = saved
                    }
                    if windowsQuirk || authorityOrHostBegin == index {
                        if c == "?" {
                            append("/?")
                            index += 1
                            pathAfterLastSlash = buffer.count - 1
                            pathEnd = pathAfterLastSlash
                            state = .query
                            continue
                        }
                        if c == "#" {
                            append("/#")
                            index += 1
                            pathAfterLastSlash = buffer.count - 1
                            pathEnd = pathAfterLastSlash
                            queryEnd = pathAfterLastSlash
                            state = .fragment
                            continue
                        }
                        state = authorityOrHostBegin == index ? .filePathStart : .path
                        continue
                    }
                    try parseHostAndPort(authorityOrHostBegin..<index)
                    if Self.isLocalhost(buffer[passwordEnd..<buffer.count]) {
                        buffer.removeSubrange(passwordEnd...)
                        hostEnd = buffer.count
                        portLength = 0
                    }
                    state = .pathStart
                    continue
                }
                if c == "%" || !c.isASCII { hostHasPercentOrNonASCII = true }
                index += 1
            case .filePathStart:
                // "file:///C|/": the drive letter right after the empty host.
                if c == "/" || c == "\\" {
                    append(UInt8(ascii: "/"))
                    index += 1
                    pathAfterLastSlash = buffer.count
                    if isWindowsDriveLetter(at: index) && buffer.count == hostEnd + 1 { appendWindowsDriveLetter() }
                }
                state = .path
            case .pathStart:
                if c != "/" && c != "\\" { append(UInt8(ascii: "/")) }
                pathAfterLastSlash = buffer.count
                state = .path
            case .path:
                if c == "/" || (isSpecial && c == "\\") {
                    append(UInt8(ascii: "/"))
                    index += 1
                    pathAfterLastSlash = buffer.count
                    continue
                }
                if buffer.last == UInt8(ascii: "/") {
                    if isDoubleDotPathSegment(at: index) {
                        consumeDoubleDotPathSegment()
                        popPath()
                        continue
                    }
                    if isSingleDotPathSegment(at: index) {
                        consumeSingleDotPathSegment()
                        continue
                    }
                }
                if c == "?" {
                    pathEnd = buffer.count
                    append(UInt8(ascii: "?"))
                    index += 1
                    state = .query
                    continue
                }
                if c == "#" {
                    pathEnd = buffer.count
                    queryEnd = pathEnd
                    state = .fragment
                    continue
                }
                percentEncode(c, Self.isInPathEncodeSet)
                index += 1
            case .opaquePath:
                if c == "?" {
                    pathEnd = buffer.count
                    append(UInt8(ascii: "?"))
                    index += 1
                    state = .query
                } else if c == "#" {
                    pathEnd = buffer.count
                    queryEnd = pathEnd
                    state = .fragment
                } else if c == "/" {
                    append(UInt8(ascii: "/"))
                    index += 1
                    pathAfterLastSlash = buffer.count
                } else if c == " " {
                    // A space before the query or fragment would be trimmed when the URL is
                    // read again: WebKit encodes that one.
                    let next = scalar(at: index + 1)
                    if next == "?" || next == "#" { appendPercentEncoded(0x20) } else { append(0x20) }
                    index += 1
                } else {
                    percentEncode(c, Self.isInC0ControlEncodeSet)
                    index += 1
                }
            case .query:
                if c == "#" {
                    queryEnd = buffer.count
                    state = .fragment
                    continue
                }
                queryEncode(c)
                index += 1
            case .fragment:
                if buffer.count == queryEnd, c == "#" {
                    // The '#' that starts the fragment.
                    append(UInt8(ascii: "#"))
                    index += 1
                    continue
                }
                percentEncode(c, Self.isInFragmentEncodeSet)
                index += 1
            }
        }

        // WebKit's final states, without a base.
        switch state {
        case .schemeStart, .scheme:
            throw fail("not an absolute URL: there is no scheme (like https:)", at: 0)
        case .pathOrAuthority:
            userStart -= 1
            (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
            pathAfterLastSlash = userStart + 1
            (pathEnd, queryEnd) = (pathAfterLastSlash, pathAfterLastSlash)
        case .specialAuthoritySlashes, .specialAuthorityIgnoreSlashes:
            throw fail("a \(scheme) URL needs a host", at: input.count)
        case .authorityOrHost:
            userEnd = buffer.count
            passwordEnd = userEnd
            if authorityOrHostBegin >= input.count {
                if isSpecial { throw fail("a \(scheme) URL needs a host", at: input.count) }
                (userEnd, passwordEnd, hostEnd, portLength, pathEnd) = (userStart, userStart, userStart, 0, userStart)
            } else {
                try endWithHost(authorityOrHostBegin..<input.count)
            }
            pathAfterLastSlash = pathEnd
            queryEnd = pathEnd
        case .host:
            try endWithHost(authorityOrHostBegin..<input.count)
            pathAfterLastSlash = pathEnd
            queryEnd = pathEnd
        case .file:
            append("///")
            userStart = buffer.count - 1
            (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
            pathAfterLastSlash = userStart + 1
            (pathEnd, queryEnd) = (pathAfterLastSlash, pathAfterLastSlash)
        case .fileSlash:
            userStart = buffer.count + 1
            append("//")
            (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
            pathAfterLastSlash = hostEnd + 1
            (pathEnd, queryEnd) = (pathAfterLastSlash, pathAfterLastSlash)
        case .fileHost:
            if input.count - authorityOrHostBegin == 2 && isWindowsDriveLetter(at: authorityOrHostBegin) {
                append(UInt8(ascii: "/"))
                index = authorityOrHostBegin
                appendWindowsDriveLetter()
                pathAfterLastSlash = buffer.count
                (pathEnd, queryEnd) = (pathAfterLastSlash, pathAfterLastSlash)
                break
            }
            if authorityOrHostBegin >= input.count {
                append(UInt8(ascii: "/"))
                userStart = buffer.count - 1
                (userEnd, passwordEnd, hostEnd, portLength) = (userStart, userStart, userStart, 0)
                pathAfterLastSlash = userStart + 1
                (pathEnd, queryEnd) = (pathAfterLastSlash, pathAfterLastSlash)
                break
            }
            try parseHostAndPort(authorityOrHostBegin..<input.count)
            if Self.isLocalhost(buffer[passwordEnd..<buffer.count]) {
                buffer.removeSubrange(passwordEnd...)
                hostEnd = buffer.count
                portLength = 0
            }
            append(UInt8(ascii: "/"))
            pathAfterLastSlash = hostEnd + portLength + 1
            (pathEnd, queryEnd) = (pathAfterLastSlash, pathAfterLastSlash)
        case .pathStart:
            pathAfterLastSlash = buffer.count
            (pathEnd, queryEnd) = (buffer.count, buffer.count)
        case .filePathStart, .path, .opaquePath:
            pathEnd = buffer.count
            queryEnd = pathEnd
        case .query:
            queryEnd = buffer.count
        case .fragment:
            break
        }
        // WebKit `needsNonSpecialDotSlash`: a non-special URL without a host whose path starts
        // with "//" gets "/." before it, so that it does not read back as a host.
        let pathStart = hostEnd + portLength
        if !isSpecial, pathStart == schemeEnd + 1, pathStart + 1 < buffer.count, buffer[pathStart] == UInt8(ascii: "/"), buffer[pathStart + 1] == UInt8(ascii: "/") {
            buffer.insert(contentsOf: Array("/.".utf8), at: pathStart)
            pathAfterLastSlash += 2
            pathEnd += 2
            queryEnd += 2
        }
        return parts
    }

    private var scheme: String { String(decoding: buffer[0..<schemeEnd], as: UTF8.self) }

    /// The parts of the buffer, as `CanonicalURL` keeps them.
    private var parts: CanonicalURL.Parts {
        func text(_ range: Range<Int>) -> String { String(decoding: buffer[range], as: UTF8.self) }
        var parts = CanonicalURL.Parts(scheme: scheme, path: "")
        let hasAuthority = userStart >= schemeEnd + 3 && buffer[schemeEnd + 1] == UInt8(ascii: "/") && buffer[schemeEnd + 2] == UInt8(ascii: "/") && !hasOpaquePath
        let hostStart = passwordEnd > userStart ? passwordEnd + 1 : userStart
        if hasAuthority {
            parts.userInfo = passwordEnd > userStart ? text(userStart..<(passwordEnd + 1)) : ""
            parts.host = text(hostStart..<hostEnd)
            if portLength > 1 { parts.port = Int(text((hostEnd + 1)..<(hostEnd + portLength))) }
        }
        let pathStart = hostEnd + portLength
        parts.path = text(pathStart..<pathEnd)
        if queryEnd > pathEnd { parts.query = text((pathEnd + 1)..<queryEnd) }
        if buffer.count > queryEnd { parts.fragment = text((queryEnd + 1)..<buffer.count) }
        return parts
    }

    private static func endsAuthority(_ c: Unicode.Scalar, special: Bool) -> Bool {
        c == "/" || (special && c == "\\") || c == "?" || c == "#"
    }

    // MARK: User info

    /// WebKit `parseAuthority`: user and password, percent-encoded, then '@'.
    private mutating func parseAuthority(_ range: Range<Int>) {
        guard !range.isEmpty else {
            userEnd = buffer.count
            passwordEnd = userEnd
            return
        }
        var position = range.lowerBound
        var sawColon = false
        while position < range.upperBound {
            let c = input[position]
            if c == ":" {
                userEnd = buffer.count
                position += 1
                if position == range.upperBound {
                    passwordEnd = userEnd
                    if userEnd > userStart { append(UInt8(ascii: "@")) }
                    return
                }
                append(UInt8(ascii: ":"))
                sawColon = true
                break
            }
            percentEncode(c, Self.isInUserInfoEncodeSet)
            position += 1
        }
        while position < range.upperBound {
            percentEncode(input[position], Self.isInUserInfoEncodeSet)
            position += 1
        }
        passwordEnd = buffer.count
        if !sawColon { userEnd = passwordEnd }
        append(UInt8(ascii: "@"))
    }

    // MARK: Host and port

    /// WebKit `parseHostAndPort`: an IPv6 literal, an opaque host (non-special schemes), or a
    /// domain — ASCII without `%` or an `xn--` label taken as written, anything else
    /// percent-decoded and put through IDNA — which may turn out to be an IPv4 address; then
    /// the port.
    /// The input ends in the host: the host and port, then the path a special URL always
    /// has ("/"), or none.
    private mutating func endWithHost(_ range: Range<Int>) throws(CanonicalURL.ParseError) {
        try parseHostAndPort(range)
        if isSpecial {
            append(UInt8(ascii: "/"))
            pathEnd = hostEnd + portLength + 1
        } else {
            pathEnd = hostEnd + portLength
        }
    }

    private mutating func parseHostAndPort(_ range: Range<Int>) throws(CanonicalURL.ParseError) {
        guard !range.isEmpty else { throw fail("a \(scheme) URL needs a host", at: range.lowerBound) }
        let first = input[range.lowerBound]
        if first == ":" { throw fail("the host is missing before the port", at: range.lowerBound) }
        if first == "[" {
            guard let close = input[range].firstIndex(of: "]") else { throw fail("the IPv6 address has no closing ']'", at: range.lowerBound) }
            guard let address = IPv6Address.parse(Array(input[(range.lowerBound + 1)..<close])) else {
                throw fail("'\(String(String.UnicodeScalarView(input[range.lowerBound...close])))' is not a valid IPv6 address", at: range.lowerBound)
            }
            append(IPv6Address.serialize(address))
            hostEnd = buffer.count
            let after = close + 1
            if after < range.upperBound {
                guard input[after] == ":" else { throw fail("unexpected characters after the IPv6 address", at: after) }
                try parsePort(after..<range.upperBound)
            } else {
                portLength = 0
            }
            return
        }
        var hostLimit = range.upperBound
        if !isSpecial {
            var position = range.lowerBound
            while position < range.upperBound {
                let c = input[position]
                if c == ":" { break }
                if Self.isForbiddenHostCodePoint(c) && c != "%" { throw fail("the host contains '\(c.escaped(asASCII: true))', which a host may not", at: position) }
                percentEncode(c, Self.isInC0ControlEncodeSet)
                position += 1
            }
            hostEnd = buffer.count
            if position == range.upperBound {
                portLength = 0
                return
            }
            try parsePort(position..<range.upperBound)
            return
        }
        if let colon = input[range].firstIndex(of: ":") { hostLimit = colon }
        let host = Array(input[range.lowerBound..<hostLimit])
        let domain: [UInt8]
        if !hostHasPercentOrNonASCII && !Self.subdomainStartsWithXNDashDash(host) {
            if let bad = host.firstIndex(where: Self.isForbiddenDomainCodePoint) {
                throw fail("the host contains '\(host[bad].escaped(asASCII: true))', which a host may not", at: range.lowerBound + bad)
            }
            domain = host.map { Self.lowercased($0) }
        } else {
            // UTF-8, percent-decoded, then IDNA (WebKit `domainToASCII`).
            var utf8: [UInt8] = []
            for scalar in host { utf8 += Array(String(scalar).utf8) }
            let decoded = Self.percentDecode(utf8)
            guard let text = String(validating: decoded, as: UTF8.self) else {
                throw fail("the host is not UTF-8 once its %-escapes are decoded", at: range.lowerBound)
            }
            guard let ascii = IDNA.domainToASCII(text) else {
                throw fail("the host '\(text)' is not a valid international domain name (IDNA, as WebKit applies it)", at: range.lowerBound)
            }
            if let bad = ascii.firstIndex(where: { Self.isForbiddenDomainCodePoint(Unicode.Scalar($0)) }) {
                throw fail("the host holds the character '\(Unicode.Scalar(ascii[bad]).escaped(asASCII: true))', which no host may contain", at: range.lowerBound)
            }
            domain = ascii
        }
        switch IPv4Address.parse(domain) {
        case .address(let address):
            append(IPv4Address.serialize(address))
        case .failure:
            throw fail("'\(String(decoding: domain, as: UTF8.self))' looks like an IPv4 address but is not a valid one", at: range.lowerBound)
        case .notIPv4:
            buffer += domain
            if IPv4Address.endsInNumber(domain) {
                throw fail("'\(String(decoding: domain, as: UTF8.self))' looks like an IPv4 address but is not a valid one", at: range.lowerBound)
            }
        }
        hostEnd = buffer.count
        if hostLimit < range.upperBound {
            try parsePort(hostLimit..<range.upperBound)
        } else {
            portLength = 0
        }
    }

    /// WebKit `parsePort`: digits only, at most 65535, the scheme's default dropped; a file
    /// URL has none.
    private mutating func parsePort(_ range: Range<Int>) throws(CanonicalURL.ParseError) {
        guard !isFile else { throw fail("a file URL has no port", at: range.lowerBound) }
        let digits = input[(range.lowerBound + 1)..<range.upperBound]
        if digits.isEmpty {
            portLength = 0
            return
        }
        var port = 0
        for (offset, c) in digits.enumerated() {
            guard ("0"..."9").contains(c) else {
                throw fail("the port '\(String(String.UnicodeScalarView(digits)))' is not a number from 0 to 65535", at: range.lowerBound + 1 + offset)
            }
            port = port * 10 + Int(c.value - 48)
            guard port <= 65535 else { throw fail("the port '\(String(String.UnicodeScalarView(digits)))' is not a number from 0 to 65535", at: range.lowerBound + 1) }
        }
        if CanonicalURL.specialSchemes[scheme].flatMap({ $0 }) == port {
            portLength = 0
        } else {
            append(":\(port)")
            portLength = buffer.count - hostEnd
        }
    }

    /// WebKit `subdomainStartsWithXNDashDash`: a label of the host starts with `xn--`, in any
    /// case — such a host goes through IDNA even when it is ASCII.
    static func subdomainStartsWithXNDashDash(_ host: [Unicode.Scalar]) -> Bool {
        var labelStart = true
        var position = 0
        while position < host.count {
            if labelStart, position + 3 < host.count, host[position] == "x" || host[position] == "X", host[position + 1] == "n" || host[position + 1] == "N",
               host[position + 2] == "-", host[position + 3] == "-" {
                return true
            }
            labelStart = host[position] == "."
            position += 1
        }
        return false
    }

    private static func percentDecode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "%"), position + 2 < bytes.count, let high = hexValue(bytes[position + 1]), let low = hexValue(bytes[position + 2]) {
                output.append(high << 4 | low)
                position += 3
            } else {
                output.append(bytes[position])
                position += 1
            }
        }
        return output
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private static func isLocalhost(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 9 && bytes.map { $0 | 0x20 } == Array("localhost".utf8)
    }

    // MARK: Paths

    /// "." or "%2e" (any case), then the end, '/', '\\', '?' or '#'.
    private func isSingleDotPathSegment(at position: Int) -> Bool {
        guard let end = dotEnd(at: position) else { return false }
        guard let next = scalar(at: end) else { return true }
        return next == "/" || next == "\\" || next == "?" || next == "#"
    }

    private func isDoubleDotPathSegment(at position: Int) -> Bool {
        guard let end = dotEnd(at: position) else { return false }
        return isSingleDotPathSegment(at: end)
    }

    /// Where a "." or "%2e" at `position` ends.
    private func dotEnd(at position: Int) -> Int? {
        guard let c = scalar(at: position) else { return nil }
        if c == "." { return position + 1 }
        guard c == "%", scalar(at: position + 1) == "2", let e = scalar(at: position + 2), e == "e" || e == "E" else { return nil }
        return position + 3
    }

    private mutating func consumeSingleDotPathSegment() {
        index = dotEnd(at: index)!
        if let next = scalar(at: index), next == "/" || next == "\\" { index += 1 }
    }

    private mutating func consumeDoubleDotPathSegment() {
        index = dotEnd(at: index)!
        consumeSingleDotPathSegment()
    }

    /// WebKit `popPath`: the last segment goes, except a file URL's drive letter.
    private mutating func popPath() {
        let pathStart = hostEnd + portLength
        if pathAfterLastSlash > pathStart + 1 {
            var newPathAfterLastSlash = pathAfterLastSlash - 1
            if buffer[newPathAfterLastSlash] == UInt8(ascii: "/") { newPathAfterLastSlash -= 1 }
            while newPathAfterLastSlash > pathStart && buffer[newPathAfterLastSlash] != UInt8(ascii: "/") { newPathAfterLastSlash -= 1 }
            newPathAfterLastSlash += 1
            let component = buffer[newPathAfterLastSlash..<pathAfterLastSlash]
            let isDrive = isFile && newPathAfterLastSlash == pathStart + 1 && Self.isWindowsDriveLetter(Array(component.map { Unicode.Scalar($0) }), at: 0)
            if !isDrive { pathAfterLastSlash = newPathAfterLastSlash }
        }
        buffer.removeSubrange(pathAfterLastSlash...)
    }

    /// A letter, then ':' or '|', then the end, '/', '\\', '?' or '#'.
    private func isWindowsDriveLetter(at position: Int) -> Bool { Self.isWindowsDriveLetter(input, at: position) }

    private static func isWindowsDriveLetter(_ scalars: [Unicode.Scalar], at position: Int) -> Bool {
        guard position + 1 < scalars.count, isASCIIAlpha(scalars[position]), scalars[position + 1] == ":" || scalars[position + 1] == "|" else { return false }
        guard position + 2 < scalars.count else { return true }
        let next = scalars[position + 2]
        return next == "/" || next == "\\" || next == "?" || next == "#"
    }

    /// WebKit `appendWindowsDriveLetter`: the letter and ':' (a '|' becomes ':'), the path
    /// before it dropped.
    private mutating func appendWindowsDriveLetter() {
        let lengthWithOnlyOneSlashInPath = hostEnd + portLength + 1
        if pathAfterLastSlash > lengthWithOnlyOneSlashInPath {
            pathAfterLastSlash = lengthWithOnlyOneSlashInPath
            buffer.removeSubrange(lengthWithOnlyOneSlashInPath...)
        }
        append(UInt8(truncatingIfNeeded: input[index].value))
        index += 1
        append(UInt8(ascii: ":"))
        index += 1
    }

    // MARK: Percent-encoding (WebKit's character class table)

    private mutating func percentEncode(_ c: Unicode.Scalar, _ isInSet: (UInt32) -> Bool) {
        if c.isASCII && !isInSet(c.value) {
            append(UInt8(c.value))
            return
        }
        for byte in String(c).utf8 { appendPercentEncoded(byte) }
    }

    /// WebKit `utf8QueryEncode`: each byte of a non-ASCII code point is encoded only if it is in
    /// the query set (every byte ≥ 0x80 is).
    private mutating func queryEncode(_ c: Unicode.Scalar) {
        for byte in String(c).utf8 {
            if Self.shouldPercentEncodeQueryByte(byte, special: isSpecial) { appendPercentEncoded(byte) } else { append(byte) }
        }
    }

    private mutating func appendPercentEncoded(_ byte: UInt8) {
        let digits = Array("0123456789ABCDEF".utf8)
        buffer += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
    }

    static func isInC0ControlEncodeSet(_ c: UInt32) -> Bool { c > 0x7E || c <= 0x1F }
    static func isInFragmentEncodeSet(_ c: UInt32) -> Bool { c > 0x7E || c == 0x60 || c <= 0x20 || c == 0x22 || c == 0x3C || c == 0x3E }
    static func isInPathEncodeSet(_ c: UInt32) -> Bool {
        c > 0x7E || c <= 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E || c == 0x3F || c == 0x5E || c == 0x60 || c == 0x7B || c == 0x7D
    }
    static func isInUserInfoEncodeSet(_ c: UInt32) -> Bool {
        if isInPathEncodeSet(c) { return true }
        switch c {
        case 0x2F, 0x3A, 0x3B, 0x3D, 0x40, 0x5B, 0x5C, 0x5D, 0x7C: return true
        default: return false
        }
    }
    static func shouldPercentEncodeQueryByte(_ byte: UInt8, special: Bool) -> Bool {
        byte > 0x7E || byte <= 0x20 || byte == 0x22 || byte == 0x23 || byte == 0x3C || byte == 0x3E || (special && byte == 0x27)
    }

    /// What an opaque host may not hold (WebKit `ForbiddenHost`).
    static func isForbiddenHostCodePoint(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0, 0x9, 0xA, 0xD, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x7C: return true
        default: return false
        }
    }

    /// What a domain may not hold (WebKit `ForbiddenDomain`): the forbidden host code points,
    /// C0 controls, '%' and DEL.
    static func isForbiddenDomainCodePoint(_ c: Unicode.Scalar) -> Bool {
        c.value <= 0x20 || c.value == 0x25 || c.value == 0x7F || isForbiddenHostCodePoint(c)
    }

    private static func isASCIIAlpha(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
    private static func isSchemeCharacter(_ c: Unicode.Scalar) -> Bool { isASCIIAlpha(c) || ("0"..."9").contains(c) || c == "+" || c == "-" || c == "." }
    private static func lowercased(_ c: Unicode.Scalar) -> UInt8 {
        let value = UInt8(truncatingIfNeeded: c.value)
        return ("A"..."Z").contains(c) ? value | 0x20 : value
    }
}
