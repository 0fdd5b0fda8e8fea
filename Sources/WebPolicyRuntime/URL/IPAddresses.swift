/// IPv4 hosts as WebKit reads them (`URLParser::parseIPv4Host`, `parseIPv4Piece`): up to four
/// parts, each decimal, `0x` hexadecimal or `0` octal; the last fills the remaining bytes. A
/// host that is not one may still end in a number, which no domain may
/// (`dnsNameEndsInNumber`).
enum IPv4Address {
    enum Result: Equatable {
        case address(UInt32)
        /// Numbers, but out of range: the URL fails.
        case failure
        /// Not an IPv4 address: a domain name.
        case notIPv4
    }

    private enum PieceError: Error { case failure, overflow }

    static func parse(_ host: [UInt8]) -> Result {
        var index = 0
        if host.first == UInt8(ascii: ".") { return .notIPv4 }
        var items: [Swift.Result<UInt32, PieceError>] = []
        while index < host.count {
            if items.count >= 4 { return .notIPv4 }
            items.append(piece(host, &index))
            if index < host.count, host[index] == UInt8(ascii: ".") {
                index += 1
                if index < host.count, host[index] == UInt8(ascii: ".") { return .notIPv4 }
            }
        }
        guard !items.isEmpty else { return .notIPv4 }
        for item in items { if case .failure(.failure) = item { return .notIPv4 } }
        for item in items { if case .failure(.overflow) = item { return .failure } }
        let values = items.map { (try? $0.get()) ?? 0 }
        if values.dropLast().contains(where: { $0 > 255 }) { return .failure }
        let last = UInt64(values[values.count - 1])
        guard last < UInt64(1) << UInt64(8 * (5 - values.count)) else { return .failure }
        var address = UInt32(last)
        for (counter, value) in values.dropLast().enumerated() { address &+= value << UInt32(8 * (3 - counter)) }
        return .address(address)
    }

    private static func piece(_ host: [UInt8], _ index: inout Int) -> Swift.Result<UInt32, PieceError> {
        enum State { case unknownBase, decimal, octalOrHex, octal, hex }
        var state = State.unknownBase
        var value: UInt32 = 0
        if index < host.count, host[index] == UInt8(ascii: ".") { return .failure(.failure) }
        func add(_ digit: UInt32, base: UInt32) -> Bool {
            let (product, overflow) = value.multipliedReportingOverflow(by: base)
            let (sum, overflowSum) = product.addingReportingOverflow(digit)
            value = sum
            return !overflow && !overflowSum
        }
        while index < host.count {
            let byte = host[index]
            if byte == UInt8(ascii: ".") { return .success(value) }
            switch state {
            case .unknownBase:
                if byte == UInt8(ascii: "0") {
                    index += 1
                    state = .octalOrHex
                } else {
                    state = .decimal
                }
            case .octalOrHex:
                if byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") {
                    index += 1
                    state = .hex
                } else {
                    state = .octal
                }
            case .decimal:
                guard (0x30...0x39).contains(byte) else { return .failure(.failure) }
                guard add(UInt32(byte - 0x30), base: 10) else { return .failure(.overflow) }
                index += 1
            case .octal:
                guard (0x30...0x37).contains(byte) else { return .failure(.failure) }
                guard add(UInt32(byte - 0x30), base: 8) else { return .failure(.overflow) }
                index += 1
            case .hex:
                guard let digit = WebKitURLParser.hexValue(byte) else { return .failure(.failure) }
                guard add(UInt32(digit), base: 16) else { return .failure(.overflow) }
                index += 1
            }
        }
        return .success(value)
    }

    static func serialize(_ address: UInt32) -> String {
        "\(address >> 24).\((address >> 16) & 0xFF).\((address >> 8) & 0xFF).\(address & 0xFF)"
    }

    /// WebKit `dnsNameEndsInNumber` (WHATWG "ends in a number"): the last label — a trailing
    /// dot aside — is digits, or `0x` and hexadecimal digits.
    static func endsInNumber(_ name: [UInt8]) -> Bool {
        var end = name.count
        if end > 0, name[end - 1] == UInt8(ascii: ".") { end -= 1 }
        var start = end
        while start > 0, name[start - 1] != UInt8(ascii: ".") { start -= 1 }
        let last = name[start..<end]
        guard let first = last.first, (0x30...0x39).contains(first) else { return false }
        if last.count == 1 { return true }
        if first == UInt8(ascii: "0"), last[start + 1] | 0x20 == UInt8(ascii: "x") {
            return last.dropFirst(2).allSatisfy { WebKitURLParser.hexValue($0) != nil }
        }
        return last.allSatisfy { (0x30...0x39).contains($0) }
    }
}

/// IPv6 literals as WebKit reads and writes them (`URLParser::parseIPv6Host`,
/// `serializeIPv6`): eight pieces, `::` for a run of zeros, an IPv4 address at the end;
/// written lowercase, the first longest run of two or more zero pieces as `::`.
enum IPv6Address {
    /// The address between `[` and `]`.
    static func parse(_ text: [Unicode.Scalar]) -> [UInt16]? {
        var c = 0
        func at(_ position: Int) -> Unicode.Scalar? { position < text.count ? text[position] : nil }
        guard !text.isEmpty else { return nil }
        var address = [UInt16](repeating: 0, count: 8)
        var piecePointer = 0
        var compressPointer: Int?
        if text[c] == ":" {
            c += 1
            guard at(c) == ":" else { return nil }
            c += 1
            piecePointer += 1
            compressPointer = piecePointer
        }
        while c < text.count {
            if piecePointer == 8 { return nil }
            if text[c] == ":" {
                if compressPointer != nil { return nil }
                c += 1
                piecePointer += 1
                compressPointer = piecePointer
                continue
            }
            if piecePointer == 6 || (compressPointer != nil && piecePointer < 6), let ipv4 = ipv4Inside(Array(text[c...])) {
                if compressPointer != nil && piecePointer == 5 { return nil }
                address[piecePointer] = UInt16(ipv4 >> 16)
                address[piecePointer + 1] = UInt16(ipv4 & 0xFFFF)
                piecePointer += 2
                c = text.count
                break
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let scalar = at(c), scalar.isASCII, let digit = WebKitURLParser.hexValue(UInt8(scalar.value)) {
                value = value &* 16 &+ UInt16(digit)
                c += 1
                length += 1
            }
            address[piecePointer] = value
            piecePointer += 1
            if c >= text.count { break }
            if piecePointer == 8 || text[c] != ":" { return nil }
            c += 1
        }
        if let compress = compressPointer {
            var swaps = piecePointer - compress
            piecePointer = 7
            while swaps > 0 {
                address.swapAt(piecePointer, compress + swaps - 1)
                piecePointer -= 1
                swaps -= 1
            }
        } else if piecePointer != 8 {
            return nil
        }
        return address
    }

    /// WebKit `parseIPv4AddressInsideIPv6`: four decimal parts, no leading zeros, the rest of
    /// the address exactly.
    private static func ipv4Inside(_ text: [Unicode.Scalar]) -> UInt32? {
        var c = 0
        var address: UInt32 = 0
        for part in 0..<4 {
            guard c < text.count else { return nil }
            var piece: UInt32 = 0
            var leadingZeros = false
            var digits = 0
            while c < text.count {
                let scalar = text[c]
                guard ("0"..."9").contains(scalar) else { return nil }
                if piece == 0 && scalar == "0" {
                    if leadingZeros { return nil }
                    leadingZeros = true
                }
                piece = piece * 10 + (scalar.value - 48)
                if piece > 255 { return nil }
                c += 1
                digits += 1
                if c < text.count, text[c] == "." { break }
            }
            if piece != 0 && leadingZeros { return nil }
            guard digits > 0 else { return nil }
            address = address << 8 + piece
            if part < 3 {
                guard c < text.count, text[c] == "." else { return nil }
                c += 1
            } else if c < text.count {
                return nil
            }
        }
        return address
    }

    static func serialize(_ address: [UInt16]) -> String {
        // The first longest run of two or more zero pieces.
        var compress: Int?
        var longest = 0
        var index = 0
        while index < 8 {
            var end = index
            while end < 8, address[end] == 0 { end += 1 }
            let length = end - index
            if length > 0 {
                if length > 1 && (compress == nil || longest < length) {
                    compress = index
                    longest = length
                }
                index += length
            }
            index += 1
        }
        var output = "["
        var piece = 0
        while piece < 8 {
            if piece == compress {
                output += piece == 0 ? "::" : ":"
                while piece < 8, address[piece] == 0 { piece += 1 }
                if piece == 8 { break }
            }
            output += String(address[piece], radix: 16)
            if piece < 7 { output += ":" }
            piece += 1
        }
        return output + "]"
    }
}
