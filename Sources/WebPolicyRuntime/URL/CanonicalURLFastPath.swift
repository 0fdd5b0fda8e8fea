import URLFilter

/// The common case of a trace URL — `http(s)://host/path?query#fragment` in plain ASCII, with
/// nothing for the WHATWG parser to rewrite but the host's case — canonicalised straight from
/// its bytes. Anything else (ports, user info, IP addresses, escapes in the host, dot
/// segments, backslashes, characters to percent-encode, non-ASCII) returns nil and goes to the
/// full parser; a test checks that both agree wherever this one answers.
extension CanonicalURL {
    static func parseSimple(_ input: String) -> CanonicalURL? {
        // Made contiguous once; the URL's text is then this string, as written.
        var contiguous = input
        contiguous.makeContiguousUTF8()
        let written = contiguous
        return contiguous.withUTF8 { bytes -> CanonicalURL? in
            guard let simple = SimpleURL(bytes) else { return nil }
            let count = bytes.count
            let (hostStart, hostEnd, pathStart, pathEnd) = (simple.host.lowerBound, simple.host.upperBound, simple.path.lowerBound, simple.path.upperBound)
            // The canonical URL is the input itself, but for capitals in the host and an
            // empty path, which a special scheme makes "/" (WHATWG path start state).
            var layout = Layout(userInfo: hostStart..<hostStart, host: hostStart..<hostEnd, path: pathStart..<pathEnd, query: simple.query, fragment: simple.fragment)
            var canonical = written
            if !simple.isCanonical {
                func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
                let host = text(hostStart..<hostEnd)
                canonical = text(0..<hostStart) + (simple.hasUppercase ? host.lowercased() : host) + (pathEnd == pathStart ? "/" : "") + text(hostEnd..<count)
            }
            if pathEnd == pathStart {
                layout.path = pathStart..<(pathStart + 1)
                layout.query = simple.query.map { ($0.lowerBound + 1)..<($0.upperBound + 1) }
                layout.fragment = simple.fragment.map { ($0.lowerBound + 1)..<($0.upperBound + 1) }
            }
            return CanonicalURL(text: canonical, schemeLength: simple.schemeLength, layout: layout)
        }
    }

    /// A URL the fast path reads, as offsets of its bytes: `http(s)://host/path?query#fragment`
    /// in plain ASCII, with nothing to rewrite but the host's case and an empty path. Where
    /// `isCanonical`, the bytes are the canonical URL as they stand (a trace's URLs nearly
    /// always are), and a counted simulation matches them where they lie.
    package struct SimpleURL: Sendable {
        /// 4 (`http`) or 5 (`https`).
        package var schemeLength: Int
        package var host: Range<Int>
        package var path: Range<Int>
        /// After the `?`; nil without one.
        package var query: Range<Int>?
        /// After the `#`; nil without one.
        package var fragment: Range<Int>?
        package var hasUppercase: Bool

        /// The bytes need no rewriting: no capital in the host, a path.
        package var isCanonical: Bool { !hasUppercase && !path.isEmpty }
        /// What content rules match: the URL up to its fragment's `#`.
        package var requestEnd: Int { fragment.map { $0.lowerBound - 1 } ?? (query?.upperBound ?? path.upperBound) }
        /// `make-https` upgrades it: http, on its default port (the fast path takes no port).
        package var isUpgradable: Bool { schemeLength == 4 }

        /// Reads `bytes` as a simple URL; nil for anything the full parser must see (ports,
        /// user info, IP addresses, escapes in the host, dot segments, backslashes, characters
        /// to percent-encode, non-ASCII).
        package init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let result = CanonicalURL.plainClasses.withUnsafeBufferPointer({ Self.read(bytes, $0.baseAddress.unsafelyUnwrapped) }) else { return nil }
            self = result
        }

        private init(schemeLength: Int, host: Range<Int>, path: Range<Int>, query: Range<Int>?, fragment: Range<Int>?, hasUppercase: Bool) {
            (self.schemeLength, self.host, self.path, self.query, self.fragment, self.hasUppercase) = (schemeLength, host, path, query, fragment, hasUppercase)
        }

        /// `init?`'s reading, with `classes` (`plainClasses`) in hand: the plain bytes of each
        /// part are passed over eight at a time (`plainRun`), and only the others looked at.
        private static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ classes: UnsafePointer<UInt8>) -> SimpleURL? {
            let count = bytes.count
            guard count > 8, let base = bytes.baseAddress else { return nil }
            let schemeEnd: Int
            if bytes[0] == 0x68, bytes[1] == 0x74, bytes[2] == 0x74, bytes[3] == 0x70 {  // "http"
                schemeEnd = bytes[4] == 0x73 ? 5 : 4  // "s"
            } else {
                return nil
            }
            guard bytes[schemeEnd] == 0x3A, bytes[schemeEnd + 1] == 0x2F, bytes[schemeEnd + 2] == 0x2F else { return nil }  // "://"
            let hostStart = schemeEnd + 3
            var index = hostStart
            var lastLabelStart = hostStart
            var hasUppercase = false
            while true {
                // Most bytes: a lowercase letter, a digit, `_`; nothing to look at. A byte at a
                // time: a host's labels are mostly shorter than the eight bytes `plainRun` tries
                // first.
                while index < count, classes[Int(base[index])] & CanonicalURL.hostClass != 0 { index &+= 1 }
                guard index < count else { break }
                let byte = bytes[index]
                if byte == 0x2F || byte == 0x3F || byte == 0x23 { break }  // / ? #
                // An "xn--" label goes through IDNA even in an ASCII host (WebKit
                // `subdomainStartsWithXNDashDash`): any "--" in a host is the full parser's.
                if byte == 0x2D, index > hostStart, bytes[index - 1] == 0x2D { return nil }
                switch byte {
                case 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: break  // a-z 0-9 - _
                case 0x41...0x5A: hasUppercase = true  // A-Z
                case 0x2E:  // "."
                    // An empty label (leading, doubled) is the full parser's business.
                    guard index > hostStart, bytes[index - 1] != 0x2E else { return nil }
                    if index + 1 < count, bytes[index + 1] != 0x2F, bytes[index + 1] != 0x3F, bytes[index + 1] != 0x23 { lastLabelStart = index + 1 }
                default: return nil
                }
                index += 1
            }
            let hostEnd = index
            // A host ending in a number is an IPv4 address (WHATWG "ends in a number").
            guard hostEnd > hostStart, !(0x30...0x39).contains(bytes[lastLabelStart]) else { return nil }

            let pathStart = index
            while true {
                index = plainRun(base, from: index, to: count, CanonicalURL.pathClass, classes)
                guard index < count else { break }
                let byte = bytes[index]
                if byte == 0x3F || byte == 0x23 { break }  // ? #
                guard byte > 0x20, byte < 0x7F, !CanonicalURL.pathUnsafe.contains(byte) else { return nil }
                // Dot segments (`/.`, `/..`, `%2e`) are resolved by the full parser.
                if byte == 0x2E, bytes[index - 1] == 0x2F { return nil }
                if byte == 0x25, index + 2 < count, bytes[index + 1] == 0x32, bytes[index + 2] | 0x20 == 0x65 { return nil }
                index += 1
            }
            let pathEnd = index
            var queryRange: Range<Int>?
            if index < count, bytes[index] == 0x3F {
                let start = index + 1
                // Up to the fragment's `#`, which no query byte is; any other byte that is not
                // plain in a query is the full parser's.
                index = plainRun(base, from: start, to: count, CanonicalURL.queryClass, classes)
                guard index == count || bytes[index] == 0x23 else { return nil }
                queryRange = start..<index
            }
            var fragmentRange: Range<Int>?
            if index < count {  // "#"
                let start = index + 1
                guard plainRun(base, from: start, to: count, CanonicalURL.fragmentClass, classes) == count else { return nil }
                fragmentRange = start..<count
            }
            return SimpleURL(schemeLength: schemeEnd, host: hostStart..<hostEnd, path: pathStart..<pathEnd, query: queryRange, fragment: fragmentRange,
                             hasUppercase: hasUppercase)
        }

        /// The first position from `start` whose byte is not in the plain set `bit` of
        /// `classes` (`end` if none): eight bytes' classes and-ed together, then one test.
        @inline(__always)
        private static func plainRun(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, _ bit: UInt8, _ classes: UnsafePointer<UInt8>) -> Int {
            var index = start
            while index &+ 8 <= end {
                let eight = EightBytes.load(base, index)
                var all: UInt8 = 0xFF
                for shift in stride(from: UInt64(0), to: 64, by: 8) { all &= classes[Int(truncatingIfNeeded: (eight &>> shift) & 0xFF)] }
                if all & bit == 0 { break }
                index &+= 8
            }
            while index < end, classes[Int(base[index])] & bit != 0 { index &+= 1 }
            return index
        }
    }

    /// Per byte, which of the plain sets below hold it (`hostClass`, `pathClass`,
    /// `queryClass`, `fragmentClass`): a URL's plain bytes are told by one table look-up each.
    static let plainClasses: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        return (hostPlain.contains(byte) ? hostClass : 0) | (pathPlain.contains(byte) ? pathClass : 0)
            | (queryPlain.contains(byte) ? queryClass : 0) | (fragmentPlain.contains(byte) ? fragmentClass : 0)
    }
    static let hostClass: UInt8 = 1
    static let pathClass: UInt8 = 2
    static let queryClass: UInt8 = 4
    static let fragmentClass: UInt8 = 8

    /// Printable ASCII that the WHATWG path, special-query and fragment percent-encode sets
    /// hold (as the full parser's `pathSafe`, `specialQuerySafe`, `fragmentSafe`), and `\`,
    /// which special URLs read as `/`.
    /// As bit masks, so that they are constants: a set built from a string at first use is a
    /// lazily initialised global, which costs a `swift_once` on every access (1% of a
    /// simulate). A test holds each to the characters above.
    static let pathUnsafe = ByteSet(low: 0xd000_000c_0000_0000, high: 0x2800_0001_5000_0000)  // "#<>?^`{}\
    static let specialQueryUnsafe = ByteSet(low: 0x5000_008c_0000_0000, high: 0)  // "#<>'
    static let fragmentUnsafe = ByteSet(low: 0x5000_0004_0000_0000, high: 0x1_0000_0000)  // "<>`

    /// The bytes the fast path passes over without a second look, one test each: in a host,
    /// lowercase letters, digits and `_`; in a path, printable ASCII outside `pathUnsafe` but
    /// `.` and `%` (which may start a dot segment); in a special query and a fragment,
    /// printable ASCII outside their sets. A test holds each to those definitions.
    static let hostPlain = ByteSet(low: 0x03ff_0000_0000_0000, high: 0x07ff_fffe_8000_0000)
    static let pathPlain = ByteSet(low: 0x2fff_bfd2_0000_0000, high: 0x57ff_fffe_afff_ffff)
    static let queryPlain = ByteSet(low: 0xafff_ff72_0000_0000, high: 0x7fff_ffff_ffff_ffff)
    static let fragmentPlain = ByteSet(low: 0xafff_fffa_0000_0000, high: 0x7fff_fffe_ffff_ffff)
}

/// A set of ASCII bytes as two words: a lookup costs a shift, not a hash (this runs on every
/// byte of every URL of a trace).
struct ByteSet: Sendable, Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    init(_ members: String) {
        for byte in members.utf8 where byte < 128 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }
}
