/// RFC 3492 Punycode: the ASCII spelling (`xn--…`) of an internationalised host, for lint's
/// suggestions and the Public Suffix List's international rules, and the decoder WebKit's
/// IDNA checks `xn--` labels with.
package enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// `münchen.de` → `xn--mnchen-3ya.de`, `ＧＯ.com` → `go.com`: the host as WebKit's URL parser
    /// spells it (UTS #46, `IDNA.domainToASCII`), so that a suggestion is what WebKit will match;
    /// nil where WebKit refuses the host.
    package static func toASCII(host: String) -> String? {
        // Nearly every host is ASCII already: no label to encode, nothing to split.
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return host.lowercased() }
        return IDNA.domainToASCII(host).map { String(decoding: $0, as: UTF8.self) }
    }

    /// ICU's `u_strToPunycode` refuses a label of more code points than this (`MAX_CP_COUNT`),
    /// and WebKit's host with it.
    static let maximumCodePoints = 200

    package static func encode(_ input: String) -> String? {
        let codePoints = input.unicodeScalars.map { Int($0.value) }
        guard codePoints.count <= maximumCodePoints else { return nil }
        // ASCII bytes, not Characters: the output is ASCII by construction.
        var output = codePoints.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < codePoints.count {
            guard let m = codePoints.lazy.filter({ $0 >= n }).min() else { return nil }
            let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += product
            n = m
            for codePoint in codePoints {
                if codePoint < n { delta += 1 }
                if codePoint == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ value: Int) -> UInt8 {
        UInt8(value < 26 ? value + 97 : value + 22)
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// ICU `u_strFromPunycode`, on what follows a label's "xn--": the basic code points before
    /// the last '-', then the deltas; nil for what ICU refuses (a non-ASCII basic code point, a
    /// character that is no digit, a truncated delta, an overflow of its 32-bit arithmetic, a
    /// surrogate or a code point beyond U+10FFFF). Like ICU it reads UTF-16 code units and
    /// takes only the low byte of a non-ASCII one as a digit.
    static func decode(_ label: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        let units = Array(String(String.UnicodeScalarView(label)).utf16)
        var basicLength = 0
        if let delimiter = units.lastIndex(of: 0x2D) { basicLength = delimiter }
        var output: [UInt32] = []
        for unit in units[0..<basicLength] {
            guard unit < 0x80 else { return nil }
            output.append(UInt32(unit))
        }
        var n: Int32 = 0x80, i: Int32 = 0, bias = Int32(initialBias)
        var position = basicLength > 0 ? basicLength + 1 : 0
        while position < units.count {
            let oldI = i
            var w: Int32 = 1
            var k = Int32(base)
            while true {
                guard position < units.count else { return nil }
                guard let digit = digitValue(UInt8(truncatingIfNeeded: units[position])) else { return nil }
                position += 1
                guard digit <= (Int32.max - i) / w else { return nil }
                i += digit * w
                let t = k <= bias ? Int32(tMin) : (k >= bias + Int32(tMax) ? Int32(tMax) : k - bias)
                if digit < t { break }
                guard w <= Int32.max / (Int32(base) - t) else { return nil }
                w *= Int32(base) - t
                k += Int32(base)
            }
            let count = Int32(output.count + 1)
            bias = Int32(adapt(Int(i - oldI), Int(count), oldI == 0))
            guard i / count <= Int32.max - n else { return nil }
            n += i / count
            i %= count
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(UInt32(n), at: Int(i))
            i += 1
        }
        return output.map { Unicode.Scalar($0)! }
    }

    /// ICU `basicToDigit`: letters in either case 0–25, digits 26–35.
    private static func digitValue(_ byte: UInt8) -> Int32? {
        switch byte {
        case 0x30...0x39: return Int32(byte) - 0x30 + 26
        case 0x41...0x5A: return Int32(byte) - 0x41
        case 0x61...0x7A: return Int32(byte) - 0x61
        default: return nil
        }
    }
}
