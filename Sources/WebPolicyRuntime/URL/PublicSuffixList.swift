import Foundation

/// The Public Suffix List, for WebKit's third-party test: a load is third-party when its host
/// is not within the registrable domain (eTLD+1) of the top document
/// (`ResourceLoadInfo::isThirdParty`, `RegistrableDomain::matches`). Both the ICANN and the
/// private sections apply, as in the list's own algorithm.
public struct PublicSuffixList: Sendable {
    // Substrings, so that a host's suffixes are looked up as slices of it, not copied out.
    private(set) var rules: Set<Substring> = []
    private(set) var wildcards: Set<Substring> = []
    private(set) var exceptions: Set<Substring> = []
    public private(set) var ruleCount = 0
    /// The three sets' names by their bytes, for the byte path.
    private(set) var names = PublicSuffixNameTable()
    /// Whether every rule is ASCII, so that a host's bytes compare as the sets' Substrings
    /// do (a non-ASCII one compares by Unicode equivalence: the general path answers).
    private(set) var rulesAreASCII = true

    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Parses the list's text format: one rule per line, read up to its first whitespace, `//`
    /// comments, `*.` wildcards, `!` exceptions; international rules are stored in punycode.
    ///
    /// Lines are cut at the bytes of ASCII line breaks, and an ASCII line is read byte by byte:
    /// reading the whole list as Characters (grapheme breaking, a Unicode property lookup for
    /// every `isWhitespace`) cost 35 ms — three times all the rest of linting a small policy.
    /// A line with other bytes is read as Characters, as before, for its Unicode line breaks
    /// and spaces.
    public init(text: String) {
        var text = text  // `withUTF8` needs a var; a native string is not copied
        text.withUTF8 { bytes in
            // About one rule to every 26 bytes of the published list: room for them at once.
            rules.reserveCapacity(bytes.count / 26)
            func isBreak(_ byte: UInt8) -> Bool { byte >= 0x0A && byte <= 0x0D }
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                var ascii = true
                while lineEnd < bytes.count, !isBreak(bytes[lineEnd]) {
                    if bytes[lineEnd] >= 0x80 { ascii = false }
                    lineEnd += 1
                }
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
                lineStart = lineEnd + 1
                guard let start = line.firstIndex(where: { !isSpace($0) }) else { continue }
                // A comment, skipped before a string is made of it (a fifth of the list's lines;
                // those with names in other scripts took the Characters path below). Unless, in
                // a line with other bytes, a Unicode line break (NEL, LS, PS) may start a rule
                // after it, or a combining mark makes the second `/` another Character.
                if line[start] == UInt8(ascii: "/"), start + 1 < line.endIndex, line[start + 1] == UInt8(ascii: "/"),
                   ascii || ((start + 2 == line.endIndex || line[start + 2] < 0x80) && !Self.hasUnicodeLineBreak(line)) {
                    continue
                }
                guard ascii else {
                    for part in String(decoding: line, as: UTF8.self).split(whereSeparator: \.isNewline) {
                        if let rule = part.split(whereSeparator: \.isWhitespace).first { add(String(rule)) }
                    }
                    continue
                }
                let end = line[start...].firstIndex(where: isSpace) ?? line.endIndex
                let rule = UnsafeBufferPointer(rebasing: line[start..<end])
                add(String(decoding: rule, as: UTF8.self), asciiWithCapitals: rule.contains { $0 &- UInt8(ascii: "A") < 26 })
            }
        }
    }

    /// The three encodings of Unicode's line breaks beyond ASCII, which `Character.isNewline`
    /// sees: NEL (C2 85), LINE SEPARATOR (E2 80 A8), PARAGRAPH SEPARATOR (E2 80 A9).
    private static func hasUnicodeLineBreak(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in line.indices.dropLast() {
            if line[index] == 0xC2, line[index + 1] == 0x85 { return true }
            if line[index] == 0xE2, index + 2 < line.endIndex, line[index + 1] == 0x80, line[index + 2] == 0xA8 || line[index + 2] == 0xA9 { return true }
        }
        return false
    }

    /// `asciiWithCapitals`: for a rule the caller read as ASCII bytes, whether it has capitals
    /// (nil: look at the rule).
    private mutating func add(_ rule: String, asciiWithCapitals: Bool? = nil) {
        let utf8 = rule.utf8
        guard !(utf8.first == UInt8(ascii: "/") && rule.hasPrefix("//")) else { return }
        var name = rule
        var isASCII = true
        if let hasCapitals = asciiWithCapitals {
            if hasCapitals { name = rule.lowercased() }
        } else if utf8.contains(where: { $0 >= 0x80 }) {
            isASCII = false
            name = rule.lowercased()
            // The snapshot's international rules were converted when it was made, not at
            // every start (IDNA on its 466 rules was a third of reading the list).
            if let ascii = Self.snapshotASCIIForms[name] ?? Punycode.toASCII(host: name) {
                name = ascii
                isASCII = !ascii.utf8.contains(where: { $0 >= 0x80 })
            }
        } else if utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) {
            name = rule.lowercased()
        }
        ruleCount += 1
        let entry: Substring
        let kind: PublicSuffixNameTable.Kinds
        switch name.utf8.first {
        case UInt8(ascii: "!"):
            (entry, kind) = (name.dropFirst(), .exception)
            exceptions.insert(entry)
        case UInt8(ascii: "*") where name.hasPrefix("*."):
            (entry, kind) = (name.dropFirst(2), .wildcard)
            wildcards.insert(entry)
        default:
            (entry, kind) = (name[...], .rule)
            rules.insert(entry)
        }
        if !isASCII { rulesAreASCII = false }
        names.insert(entry, kind)
    }

    public init(contentsOf path: String) throws(LoadError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read the public suffix list \(path)")
        }
        self.init(text: String(decoding: data, as: UTF8.self))
        if ruleCount == 0 { throw LoadError(description: "\(path) holds no public suffix rules") }
    }

    /// The snapshot shipped with webpolicy (`PublicSuffixListSnapshot.swift`), parsed once a
    /// process: 9,000 rules parsed for every policy linted or simulated were most of what
    /// linting a small policy cost. The list is immutable, so sharing it is safe.
    public static func bundled() -> PublicSuffixList { bundledOnce }

    private static let bundledOnce = PublicSuffixList(text: snapshot)

    /// The public suffix of `host` (lowercase, punycode): the longest matching rule, with
    /// exceptions winning and an unlisted top-level label as the default rule.
    /// The candidates are the host's suffixes that start at a label, longest first (`a.b.c`,
    /// `b.c`, `c`); each is a slice of the host, so a lookup allocates nothing.
    public func publicSuffix(of host: String) -> String {
        let utf8 = host.utf8
        var start = utf8.startIndex
        while true {
            let candidate = host[start...]
            // The next label's start: just past this label's dot, if there is one.
            let next = utf8[start...].firstIndex(of: UInt8(ascii: ".")).map(utf8.index(after:))
            if exceptions.contains(candidate) { return next.map { String(host[$0...]) } ?? "" }
            if rules.contains(candidate) { return String(candidate) }
            guard let next else { return String(candidate) }  // the last label: the default rule
            if wildcards.contains(host[next...]) { return String(candidate) }
            start = next
        }
    }

    /// Whether `host` is itself a public suffix by an explicit rule of the list (ICANN or
    /// private section): `co.uk`, `github.io`, `foo.ck` under `*.ck`. Single labels the list
    /// does not name (`localhost`) are public only by the default rule, and are not counted.
    public func isListedPublicSuffix(_ host: String) -> Bool {
        publicSuffix(of: host) == host && (host.utf8.contains(UInt8(ascii: ".")) || rules.contains(host[...]))
    }

    /// eTLD+1, or the host itself when it is an IP address, a public suffix or has one label.
    /// A host that ends in a dot (a fully qualified name) has the registrable domain of the
    /// host without it, with it: `www.example.com.` → `example.com.` — so `other.com.` is
    /// another site, as WebKit decides (ci/webkit-conformance, `fact-trailing-dot`).
    public func registrableDomain(of host: String) -> String {
        printableRegistrableDomain(of: host) ?? registrableDomainByCharacters(of: host)
    }

    /// `registrableDomain` of any host, read as Characters (what the byte path is held to).
    func registrableDomainByCharacters(of host: String) -> String {
        if host.count > 1, host.hasSuffix("."), !host.hasSuffix("..") {
            return registrableDomain(of: String(host.dropLast())) + "."
        }
        if host.hasPrefix("[") || IPv4.canonical(host) == host { return host }
        let suffix = publicSuffix(of: host)
        guard host.count > suffix.count, host.hasSuffix("." + suffix) else { return host }
        let rest = host.dropLast(suffix.count + 1)
        let label = rest.split(separator: ".").last.map(String.init) ?? String(rest)
        return label + "." + suffix
    }

    /// WebKit `isThirdParty`: the resource's host is not the top document's registrable domain
    /// or below it. Scheme and port do not matter.
    public func isThirdParty(resourceHost: String?, topHost: String?) -> Bool {
        let top = topHost.map { registrableDomain(of: $0) } ?? ""
        let resource = resourceHost ?? ""
        if top.isEmpty { return !resource.isEmpty }
        return !(resource == top || resource.hasSuffix("." + top))
    }
}
