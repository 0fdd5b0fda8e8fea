/// RFC 3492 Punycode, to suggest the ASCII spelling (`xn--…`) of an internationalised host.
/// Labels are lowercased first; full UTS #46 mapping is not attempted — the suggestion is a
/// hint, and WebKit, ATS and cookie stores all need the ASCII form the user then confirms.
package enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// `münchen.de` → `xn--mnchen-3ya.de`; nil if a label cannot be encoded.
    package static func toASCII(host: String) -> String? {
        // Nearly every host is ASCII already: no label to encode, nothing to split.
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return host.lowercased() }
        var labels: [String] = []
        for label in host.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = encode(String(label)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    package static func encode(_ input: String) -> String? {
        let codePoints = input.unicodeScalars.map { Int($0.value) }
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
}
