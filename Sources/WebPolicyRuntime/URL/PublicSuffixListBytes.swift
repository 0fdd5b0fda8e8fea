/// `registrableDomain` read from the host's bytes, for the hosts a URL has: printable ASCII,
/// no trailing dot, no IP address. Every page of a trace asks it of a new top host; the
/// general path — Characters, `split`, Substring sets hashed by Unicode — took 19,000
/// instructions a host (callgrind), more than half of what the third-party test cost over a
/// realistic trace. The answer is the same by construction (the same walk, on bytes); the
/// general path is the reference the tests hold this one to.
extension PublicSuffixList {
    /// nil when the host is not such a host, or the list has a non-ASCII rule: the general
    /// path answers.
    func printableRegistrableDomain(of host: String) -> String? {
        guard rulesAreASCII else { return nil }
        return host.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            let count = bytes.count
            guard count > 0, bytes[0] != UInt8(ascii: "["), bytes[count - 1] != UInt8(ascii: ".") else { return nil }
            var mayBeAddress = true
            for byte in bytes {
                guard byte > 0x20, byte < 0x7F else { return nil }
                // An IPv4 address, in any form WebKit reads, is digits, `x` and hex digits.
                if mayBeAddress, !(byte == UInt8(ascii: ".") || byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") || byte.isHexDigit) {
                    mayBeAddress = false
                }
            }
            guard !mayBeAddress else { return nil }
            let suffix = publicSuffixStart(bytes)
            // The host is its own suffix, or its suffix is empty (an exception on one label).
            guard suffix > 0, suffix < count else { return host }
            // The last non-empty label before the suffix's dot (`split` drops empty ones); the
            // whole rest when it has none.
            var labelEnd = suffix - 1
            while labelEnd > 0, bytes[labelEnd - 1] == UInt8(ascii: ".") { labelEnd -= 1 }
            guard labelEnd > 0 else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<(suffix - 1)]), as: UTF8.self) + "." + Self.text(bytes, suffix) }
            var labelStart = labelEnd
            while labelStart > 0, bytes[labelStart - 1] != UInt8(ascii: ".") { labelStart -= 1 }
            if labelEnd == suffix - 1 { return Self.text(bytes, labelStart) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[labelStart..<labelEnd]), as: UTF8.self) + "." + Self.text(bytes, suffix)
        } ?? nil
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
    }

    /// `publicSuffix(of:)`'s walk, as the offset where the suffix starts (`count`: empty).
    private func publicSuffixStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        func kinds(from start: Int) -> PublicSuffixNameTable.Kinds {
            names.kinds(bytes, from: start, hash: PublicSuffixNameTable.hash(bytes, from: start))
        }
        var start = 0
        var listed = kinds(from: 0)
        while true {
            var dot = start
            while dot < bytes.count, bytes[dot] != UInt8(ascii: ".") { dot += 1 }
            let next = dot < bytes.count ? dot + 1 : nil
            if listed.contains(.exception) { return next ?? bytes.count }
            if listed.contains(.rule) { return start }
            guard let next else { return start }
            // The next suffix's sets: its wildcards here, the rest on the next turn.
            listed = kinds(from: next)
            if listed.contains(.wildcard) { return start }
            start = next
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool { (self >= 0x30 && self <= 0x39) || (self | 0x20 >= 0x61 && self | 0x20 <= 0x66) }
}
