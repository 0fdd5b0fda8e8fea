import WebPolicyRuntime

/// Where a host pattern is written; it decides whether `*.` is allowed and how messages read.
enum HostField: Sendable {
    case httpAllowlist
    case contentRuleHosts
    case cookieDomain
    case interceptionHosts
    case navigationEntry
    case permissionOrigin

    var allowsWildcard: Bool { self != .cookieDomain }

    var noun: String {
        switch self {
        case .httpAllowlist: return "http-allowlist host"
        case .contentRuleHosts: return "content-rule host"
        case .cookieDomain: return "cookie domain"
        case .interceptionHosts: return "interception host"
        case .navigationEntry: return "navigation host"
        case .permissionOrigin: return "permission origin"
        }
    }
}

/// One thing wrong with a host pattern, at a span of the value (in Unicode scalars).
struct HostProblem: Sendable {
    enum Kind: Sendable { case notBare, uppercase, nonASCII, wildcard, trailingDot, syntax }

    var kind: Kind
    var offset: Int
    var length: Int
    var message: String
    var hint: String?
}

/// The grammar of host patterns, shared by every host rule: a bare host name (lowercase ASCII
/// or punycode LDH labels of 1–63 characters, 253 in all, `_` tolerated as in WHATWG URLs), an
/// IPv4 or IPv6 literal, or — where allowed — `*.` followed by a host name, meaning any
/// subdomain (not the name itself). Each rule reports one `Kind` of the problems found here.
enum HostPatternAnalysis {
    static func analyze(_ host: String, field: HostField) -> [HostProblem] {
        let scalars = Array(host.unicodeScalars)
        if scalars.isEmpty {
            return [HostProblem(kind: .syntax, offset: 0, length: 1, message: "the \(field.noun) is empty")]
        }
        // A navigation entry of '*' is well-formed and means every site: navigation-entry-too-wide
        // says so, in those words.
        if field == .navigationEntry && host == "*" { return [] }
        // `${server}`: a runtime-hosts role, bound at run time (role-undeclared checks the name).
        // A content rule's hosts are compiled into the list before any binding exists.
        if HostScope(pattern: host).role != nil {
            guard field == .contentRuleHosts else { return [] }
            return [HostProblem(kind: .syntax, offset: 0, length: scalars.count,
                                message: "the content-rule host '\(host)' names a runtime-hosts role, and a content rule is compiled into its list before the app binds one",
                                hint: "name the hosts here, or move the condition into navigation, bridges or the http-allowlist, which match the bound host")]
        }
        if let problem = notBare(host, scalars: scalars, field: field) { return [problem] }
        if isIPv6Literal(scalars) { return [] }

        var problems: [HostProblem] = []
        var bodyStart = 0
        if scalars.count >= 2, scalars[0] == "*", scalars[1] == ".", field.allowsWildcard {
            bodyStart = 2
        }
        if field == .cookieDomain, scalars[0] == "." {
            problems.append(HostProblem(
                kind: .syntax, offset: 0, length: 1,
                message: "the cookie domain '\(host)' starts with a dot, which RFC 6265 §5.2.3 ignores",
                hint: "write '\(host.dropFirst())': a cookie with a Domain already covers its subdomains"))
            bodyStart = 1
        }
        for index in bodyStart..<scalars.count where scalars[index] == "*" {
            problems.append(wildcardProblem(host, scalars: scalars, at: index, field: field))
        }

        var bodyEnd = scalars.count
        if scalars.count > bodyStart + 1, scalars[scalars.count - 1] == "." {
            problems.append(HostProblem(
                kind: .trailingDot, offset: scalars.count - 1, length: 1,
                message: "the \(field.noun) '\(host)' ends with a dot",
                hint: "remove the trailing dot: ATS treats 'example.com.' and 'example.com' as different names, and WebKit never sees the dot"))
            bodyEnd -= 1
        }
        if let upper = scalars.firstIndex(where: { ("A"..."Z").contains($0) }) {
            problems.append(HostProblem(
                kind: .uppercase, offset: upper, length: 1,
                message: "the \(field.noun) '\(host)' has uppercase letters",
                hint: "write '\(host.lowercased())': hosts are compared in lowercase, and ATS and WebKit require it"))
        }
        if let nonASCII = scalars.firstIndex(where: { !$0.isASCII }) {
            let suggestion = Punycode.toASCII(host: host).map { "write its punycode form '\($0)'" } ?? "write its punycode (xn--) form"
            problems.append(HostProblem(
                kind: .nonASCII, offset: nonASCII, length: 1,
                message: "the \(field.noun) '\(host)' is not ASCII",
                hint: "\(suggestion): WebKit, ATS and cookie stores match the ASCII form of a host"))
        }
        problems += labelProblems(scalars, from: bodyStart, to: bodyEnd, host: host, field: field)
        return problems
    }

    private static func notBare(_ host: String, scalars: [Unicode.Scalar], field: HostField) -> HostProblem? {
        func problem(_ offset: Int, _ length: Int, _ what: String) -> HostProblem {
            let bare = bareHost(host)
            return HostProblem(
                kind: .notBare, offset: offset, length: length,
                message: "the \(field.noun) '\(host)' has a \(what); write the host name alone",
                hint: bare.map { "write '\($0)'" })
        }
        if let separator = host.range(of: "://") {
            let length = host.unicodeScalars.distance(from: host.unicodeScalars.startIndex, to: separator.upperBound)
            return problem(0, length, "scheme")
        }
        if let slash = scalars.firstIndex(of: "/") { return problem(slash, scalars.count - slash, "path") }
        if let at = scalars.firstIndex(of: "@") { return problem(0, at + 1, "user name") }
        if let query = scalars.firstIndex(where: { $0 == "?" || $0 == "#" }) { return problem(query, scalars.count - query, "query or fragment") }
        if let colon = scalars.firstIndex(of: ":"), !isIPv6Literal(scalars) {
            return problem(colon, scalars.count - colon, "port")
        }
        return nil
    }

    /// The host inside a URL-ish string, for the hint.
    private static func bareHost(_ text: String) -> String? {
        var rest = Substring(text)
        if let separator = rest.range(of: "://") { rest = rest[separator.upperBound...] }
        if let at = rest.firstIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if !rest.hasPrefix("["), let colon = rest.firstIndex(of: ":") { rest = rest[..<colon] }
        let host = rest.lowercased()
        return host.isEmpty || host == text ? nil : host
    }

    static func isIPv6Literal(_ scalars: [Unicode.Scalar]) -> Bool {
        var body = scalars[...]
        if body.first == "[" && body.last == "]" { body = body.dropFirst().dropLast() }
        let colons = body.filter { $0 == ":" }.count
        return colons >= 2 && body.allSatisfy { $0 == ":" || $0 == "." || $0.properties.isASCIIHexDigit }
    }

    private static func wildcardProblem(_ host: String, scalars: [Unicode.Scalar], at index: Int, field: HostField) -> HostProblem {
        if !field.allowsWildcard {
            return HostProblem(
                kind: .wildcard, offset: index, length: 1,
                message: "the \(field.noun) '\(host)' has a wildcard",
                hint: "write the domain alone: a cookie with a Domain is sent to all its subdomains (set 'host-only: true' for the exact host)")
        }
        var hint = "'*' may only start a pattern, as '*.example.com' (any subdomain of example.com)"
        if index == 0, scalars.count > 1 {
            let rest = String(String.UnicodeScalarView(scalars[1...])).drop { $0 == "." }
            hint = rest.isEmpty ? hint : "write '*.\(rest)' for its subdomains, and list '\(rest)' too if the domain itself is meant"
        }
        return HostProblem(kind: .wildcard, offset: index, length: 1,
                           message: "the \(field.noun) '\(host)' has a '*' that is not a leading '*.'", hint: hint)
    }

    private static func labelProblems(_ scalars: [Unicode.Scalar], from start: Int, to end: Int, host: String, field: HostField) -> [HostProblem] {
        guard start < end else {
            return [HostProblem(kind: .syntax, offset: max(0, start - 1), length: 1, message: "the \(field.noun) '\(host)' has no host name after the wildcard")]
        }
        var problems: [HostProblem] = []
        if end - start > 253 {
            problems.append(HostProblem(kind: .syntax, offset: start, length: end - start,
                                        message: "the \(field.noun) is \(end - start) characters long; host names have at most 253"))
        }
        var labelStart = start
        for index in start...end {
            guard index == end || scalars[index] == "." else { continue }
            let label = scalars[labelStart..<index]
            if label.isEmpty {
                problems.append(HostProblem(kind: .syntax, offset: min(index, end - 1), length: 1,
                                            message: "the \(field.noun) '\(host)' has an empty label (two dots in a row, or a leading dot)"))
            } else if !label.contains("*") {
                if label.count > 63 {
                    problems.append(HostProblem(kind: .syntax, offset: labelStart, length: label.count,
                                                message: "a label of the \(field.noun) is \(label.count) characters long; labels have at most 63"))
                }
                if let bad = label.firstIndex(where: { $0.isASCII && !isHostCharacter($0) && !("A"..."Z").contains($0) }) {
                    problems.append(HostProblem(kind: .syntax, offset: bad, length: 1,
                                                message: "the \(field.noun) '\(host)' contains '\(scalars[bad].escaped(asASCII: true))', which cannot appear in a host name"))
                } else if label.first == "-" || label.last == "-" {
                    let offset = label.first == "-" ? labelStart : index - 1
                    problems.append(HostProblem(kind: .syntax, offset: offset, length: 1,
                                                message: "a label of the \(field.noun) '\(host)' starts or ends with '-'"))
                }
            }
            labelStart = index + 1
        }
        return problems
    }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }
}
