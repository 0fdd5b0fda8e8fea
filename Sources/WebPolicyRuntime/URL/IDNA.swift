import Foundation

/// International domain names as WebKit turns them into ASCII: `URLParser::domainToASCII`,
/// which takes an ASCII domain without an `xn--` label as it is (lowercased) and gives anything
/// else to ICU's UTS #46 (`uidna_nameToASCII`, options CHECK_BIDI | CHECK_CONTEXTJ |
/// NONTRANSITIONAL_TO_ASCII | NONTRANSITIONAL_TO_UNICODE), accepting the result when ICU's only
/// errors are among `allowedNameToASCIIErrors` — empty labels, labels or names too long, leading,
/// trailing and third-and-fourth hyphens — and it fits `hostnameBufferLength` (2,048).
///
/// The UTS #46 processing is a port of ICU's (icu4c/source/common/uts46.cpp: `process`,
/// `processUnicode`, `processLabel`, `checkLabelBiDi`, `isASCIIOkBiDi`, `isLabelOkContextJ`),
/// with its ASCII fast path, so that the same labels are checked the same way; the mapping
/// table, Bidi_Class and Joining_Type are Unicode 15.0's, ICU 72's (`IDNATables`, generated).
package enum IDNA {
    /// WebKit `hostnameBufferLength`: a longer result does not fit, and the host fails.
    static let maximumLength = 2_048

    /// The ASCII host WebKit makes of `domain` (percent-decoded already), or nil: the URL fails.
    static func domainToASCII(_ domain: String) -> [UInt8]? {
        let scalars = Array(domain.unicodeScalars)
        if scalars.allSatisfy(\.isASCII) && !WebKitURLParser.subdomainStartsWithXNDashDash(scalars) {
            return scalars.map { UInt8(truncatingIfNeeded: ("A"..."Z").contains($0) ? $0.value | 0x20 : $0.value) }
        }
        var processor = Processor()
        let output = processor.nameToASCII(scalars)
        guard !processor.failed, !output.isEmpty, output.count <= maximumLength, output.allSatisfy(\.isASCII) else { return nil }
        return output.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    /// One run of ICU's `UTS46::process` for `nameToASCII`. `failed` is set by any error WebKit
    /// does not allow; the allowed ones change nothing WebKit keeps, so they are not recorded.
    private struct Processor {
        var failed = false
        /// ICU `IDNAInfo.isBiDi` / `isOkBiDi`.
        var isBiDi = false
        var isOkBiDi = true
        /// A severe error (U+FFFD from a disallowed character, bad Punycode, a dot in a label,
        /// a leading combining mark): contextual checks are skipped, and the name fails.
        var severe = false

        mutating func nameToASCII(_ source: [Unicode.Scalar]) -> [Unicode.Scalar] {
            guard !source.isEmpty else { return [] }  // UIDNA_ERROR_EMPTY_LABEL: allowed, but nothing to use
            // ASCII fast path: leading ASCII labels are lowercased and taken as they are, up
            // to the first non-ASCII character or a label starting "??--".
            var dest: [Unicode.Scalar] = []
            var labelStart = 0
            var index = 0
            while true {
                if index == source.count { return dest }
                let c = source[index]
                if !c.isASCII { break }
                dest.append(("A"..."Z").contains(c) ? Unicode.Scalar(c.value | 0x20)! : c)
                if c == "-", index == labelStart + 3, source[index - 1] == "-" {
                    index += 1
                    break
                }
                if c == "." { labelStart = index + 1 }
                index += 1
            }
            // The rest, mapped and normalized (the current label's ASCII prefix with it, so
            // that a combining mark after it composes as ICU's normalizeSecondAndAppend does).
            let prefix = Array(dest[0..<labelStart])
            dest = prefix + IDNAData.normalized(IDNAData.mapped(Array(dest[labelStart...]) + source[index...]))
            var labelLimit = labelStart
            var start = labelStart
            while labelLimit < dest.count {
                if dest[labelLimit] == "." {
                    let length = labelLimit - start
                    let newLength = processLabel(&dest, start, length)
                    labelLimit = start + newLength + 1
                    start = labelLimit
                } else {
                    labelLimit += 1
                }
            }
            // An empty label at the end (a trailing dot) is fine; a whole empty name is not.
            if start == 0 || start < labelLimit { _ = processLabel(&dest, start, labelLimit - start) }
            if isBiDi && !severe && (!isOkBiDi || (labelStart > 0 && !Self.isASCIIOkBiDi(prefix))) { failed = true }
            return dest
        }

        /// ICU `processLabel` for toASCII: the label's new length in `dest`.
        mutating func processLabel(_ dest: inout [Unicode.Scalar], _ start: Int, _ length: Int) -> Int {
            var label = Array(dest[start..<(start + length)])
            var wasPunycode = false
            if label.count >= 4, label[0] == "x", label[1] == "n", label[2] == "-", label[3] == "-" {
                wasPunycode = true
                guard let decoded = Punycode.decode(Array(label[4...])) else {
                    fail(severe: true)
                    return length
                }
                // A label "xn--" does not encode nothing, nor only ASCII, which needs no
                // encoding (UTS #46 since Unicode 15.1, in WebKit's ICU: "xn--ascii-" fails).
                guard decoded.contains(where: { !$0.isASCII }) else {
                    fail(severe: true)
                    return length
                }
                // The decoded label must be NFC and hold only valid or deviation characters:
                // mapping and normalizing it again changes nothing (ICU `isNormalized`).
                guard IDNAData.normalized(IDNAData.mapped(decoded)) == decoded else {
                    fail(severe: true)
                    return length
                }
                label = decoded
            }
            if label.isEmpty { return 0 }  // UIDNA_ERROR_EMPTY_LABEL (allowed)
            var hasNonASCII = false
            var hasJoiner = false
            for (position, c) in label.enumerated() {
                if c.value <= 0x7F {
                    if c == "." {
                        fail(severe: true)  // UIDNA_ERROR_LABEL_HAS_DOT
                        label[position] = "\u{FFFD}"
                    }
                } else {
                    hasNonASCII = true
                    if c == "\u{200C}" || c == "\u{200D}" { hasJoiner = true }
                    if c == "\u{FFFD}" { fail(severe: true) }  // UIDNA_ERROR_DISALLOWED
                }
            }
            if IDNAData.isMark(label[0]) {
                fail(severe: true)  // UIDNA_ERROR_LEADING_COMBINING_MARK
                label[0] = "\u{FFFD}"
            }
            if !severe {
                if !isBiDi || isOkBiDi { checkLabelBiDi(label) }
                if hasJoiner && !Self.isLabelOkContextJ(label) { fail(severe: false) }
                if wasPunycode { return length }  // a Punycode label without severe errors stays as written
                if hasNonASCII {
                    guard let encoded = Punycode.encode(String(String.UnicodeScalarView(label))) else {
                        fail(severe: true)
                        return length
                    }
                    let punycode = Array(("xn--" + encoded).unicodeScalars)
                    dest.replaceSubrange(start..<(start + length), with: punycode)
                    return punycode.count
                }
            } else if wasPunycode {
                return length
            }
            dest.replaceSubrange(start..<(start + length), with: label)
            return label.count
        }

        mutating func fail(severe isSevere: Bool) {
            failed = true
            if isSevere { severe = true }
        }

        // ICU's Bidi masks, by Bidi_Class name.
        private static func mask(_ scalar: Unicode.Scalar) -> UInt32 { 1 << IDNAData.bidiClass(scalar) }
        private static let l = IDNAData.bidiMask("L"), rAl = IDNAData.bidiMask("R", "AL"), lRAl = IDNAData.bidiMask("L", "R", "AL")
        private static let rAlAn = IDNAData.bidiMask("R", "AL", "AN"), enAn = IDNAData.bidiMask("EN", "AN"), rAlEnAn = IDNAData.bidiMask("R", "AL", "EN", "AN")
        private static let lEn = IDNAData.bidiMask("L", "EN"), nsm = IDNAData.bidiClassNumber("NSM")
        private static let esCsEtOnBnNsm = IDNAData.bidiMask("ES", "CS", "ET", "ON", "BN", "NSM")

        /// ICU `checkLabelBiDi`: RFC 5893's rules for one label; a label with R, AL or AN makes
        /// the name a BiDi domain name, in which every label must pass them.
        mutating func checkLabelBiDi(_ label: [Unicode.Scalar]) {
            let firstMask = Self.mask(label[0])
            if firstMask & ~Self.lRAl != 0 { isOkBiDi = false }
            var lastMask = firstMask
            var end = label.count
            while end > 1 {
                end -= 1
                let direction = IDNAData.bidiClass(label[end])
                if direction != Self.nsm {
                    lastMask = 1 << direction
                    break
                }
            }
            if firstMask & Self.l != 0 ? lastMask & ~Self.lEn != 0 : lastMask & ~Self.rAlEnAn != 0 { isOkBiDi = false }
            var mask = firstMask | lastMask
            for scalar in label.dropFirst() { mask |= Self.mask(scalar) }
            if firstMask & Self.l != 0 {
                if mask & ~(Self.lEn | Self.esCsEtOnBnNsm) != 0 { isOkBiDi = false }
            } else {
                if mask & ~(Self.rAl | Self.enAn | Self.esCsEtOnBnNsm) != 0 { isOkBiDi = false }
                if mask & Self.enAn == Self.enAn { isOkBiDi = false }
            }
            if mask & Self.rAlAn != 0 { isBiDi = true }
        }

        /// ICU `isASCIIOkBiDi` for the ASCII labels the fast path took (ending in a dot): each
        /// starts with a letter, ends with a letter or digit, and holds no B, S or WS.
        static func isASCIIOkBiDi(_ text: [Unicode.Scalar]) -> Bool {
            var labelStart = 0
            for (index, c) in text.enumerated() {
                if c == "." {
                    if index > labelStart {
                        let last = text[index - 1]
                        if !("a"..."z").contains(last) && !("0"..."9").contains(last) { return false }
                    }
                    labelStart = index + 1
                } else if index == labelStart {
                    if !("a"..."z").contains(c) { return false }
                } else if c.value <= 0x20 && (c.value >= 0x1C || (9...0xD).contains(c.value)) {
                    return false
                }
            }
            return true
        }

        /// ICU `isLabelOkContextJ`: RFC 5892's rules for ZERO WIDTH NON-JOINER and JOINER.
        static func isLabelOkContextJ(_ label: [Unicode.Scalar]) -> Bool {
            for (index, c) in label.enumerated() {
                if c == "\u{200C}" {
                    if index == 0 { return false }
                    if label[index - 1].properties.canonicalCombiningClass.rawValue == 9 { continue }
                    var before = index - 1
                    while true {
                        switch IDNAData.joiningType(label[before]) {
                        case "T":
                            if before == 0 { return false }
                            before -= 1
                            continue
                        case "L", "D":
                            break
                        default:
                            return false
                        }
                        break
                    }
                    var after = index + 1
                    while true {
                        if after == label.count { return false }
                        switch IDNAData.joiningType(label[after]) {
                        case "T":
                            after += 1
                            continue
                        case "R", "D":
                            break
                        default:
                            return false
                        }
                        break
                    }
                } else if c == "\u{200D}" {
                    if index == 0 || label[index - 1].properties.canonicalCombiningClass.rawValue != 9 { return false }
                }
            }
            return true
        }
    }
}

/// The tables of `IDNATables`, read once: the UTS #46 mapping, Bidi_Class and Joining_Type by
/// code point, looked up by binary search over range starts.
enum IDNAData {
    private struct Ranges<Value: Sendable>: Sendable {
        let starts: [UInt32]
        let values: [Value]

        func value(_ scalar: Unicode.Scalar) -> Value {
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= scalar.value { low = middle + 1 } else { high = middle }
            }
            return values[max(low - 1, 0)]
        }
    }

    /// A mapping entry: its status byte and, for "M", where its code points are in `mappingPool`.
    private struct Mapping: Sendable {
        var status: UInt8
        var start: Int32
        var count: Int32
    }

    /// Read from the tables' text a byte at a time: splitting it into substrings and parsing
    /// each with `UInt32(_:radix:)` cost 110 million instructions, paid by every process that
    /// meets a non-ASCII name — and every one does, reading the bundled public suffix list.
    private static let tables: (mapping: Ranges<Mapping>, pool: [Unicode.Scalar], bidi: Ranges<UInt8>, joining: Ranges<UInt8>) = {
        var starts: [UInt32] = []
        var mappings: [Mapping] = []
        var pool: [Unicode.Scalar] = []
        forEachEntry(IDNATables.mapping) { fields in
            starts.append(fields[0].number)
            let status = fields[1].text.first!
            let start = Int32(pool.count)
            if status == UInt8(ascii: "M") { pool += fields.dropFirst(2).map { Unicode.Scalar($0.number)! } }
            mappings.append(Mapping(status: status, start: start, count: Int32(pool.count) - start))
        }
        func ranges(_ text: String, _ number: (UnsafeBufferPointer<UInt8>) -> UInt8) -> Ranges<UInt8> {
            var starts: [UInt32] = []
            var values: [UInt8] = []
            forEachEntry(text) { fields in
                starts.append(fields[0].number)
                values.append(number(fields[1].text))
            }
            return Ranges(starts: starts, values: values)
        }
        return (Ranges(starts: starts, values: mappings), pool,
                ranges(IDNATables.bidiClass) { UInt8(bidiClassNumber(String(decoding: $0, as: UTF8.self))) }, ranges(IDNATables.joiningType) { $0.first! })
    }()

    /// A field of a table entry: its bytes, and its value read as a hexadecimal number.
    private struct Field {
        var text: UnsafeBufferPointer<UInt8>
        var number: UInt32 {
            text.reduce(0) { value, byte in value << 4 | UInt32(byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10) }
        }
    }

    /// Each `;`-separated entry of a table, as its space-separated fields.
    private static func forEachEntry(_ text: String, _ body: ([Field]) -> Void) {
        var text = text
        text.withUTF8 { bytes in
            var fields: [Field] = []
            var fieldStart = 0
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: ";")
                guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: ";") else { continue }
                if index > fieldStart { fields.append(Field(text: UnsafeBufferPointer(rebasing: bytes[fieldStart..<index]))) }
                fieldStart = index + 1
                if byte == UInt8(ascii: ";"), !fields.isEmpty {
                    body(fields)
                    fields.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// UTS #46 mapping without STD3 rules, nontransitional: valid and deviation characters
    /// stay, mapped ones are replaced, ignored ones dropped, disallowed ones become U+FFFD (as
    /// ICU's uts46 data makes them, so that a later check finds them).
    static func mapped<Scalars: Sequence>(_ scalars: Scalars) -> [Unicode.Scalar] where Scalars.Element == Unicode.Scalar {
        var output: [Unicode.Scalar] = []
        for scalar in scalars {
            if scalar.isASCII {
                output.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value | 0x20)! : scalar)
                continue
            }
            let entry = tables.mapping.value(scalar)
            switch entry.status {
            case UInt8(ascii: "V"), UInt8(ascii: "D"): output.append(scalar)
            case UInt8(ascii: "M"): output += tables.pool[Int(entry.start)..<Int(entry.start + entry.count)]
            case UInt8(ascii: "I"): break
            default: output.append("\u{FFFD}")
            }
        }
        return output
    }

    /// Canonical composition (NFC).
    static func normalized(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard !scalars.allSatisfy(\.isASCII) else { return scalars }
        return Array(String(String.UnicodeScalarView(scalars)).precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static let bidiClassNames = ["L", "R", "EN", "ES", "ET", "AN", "CS", "B", "S", "WS", "ON", "LRE", "LRO", "AL", "RLE", "RLO", "PDF", "NSM", "BN", "FSI", "LRI", "RLI", "PDI"]

    /// ICU's `UCharDirection` number of a Bidi_Class name (the order of the enum).
    static func bidiClassNumber(_ name: String) -> UInt32 { UInt32(bidiClassNames.firstIndex(of: name)!) }

    static func bidiMask(_ names: String...) -> UInt32 { names.reduce(0) { $0 | 1 << bidiClassNumber($1) } }

    static func bidiClass(_ scalar: Unicode.Scalar) -> UInt32 { UInt32(tables.bidi.value(scalar)) }

    static func joiningType(_ scalar: Unicode.Scalar) -> Unicode.Scalar { Unicode.Scalar(tables.joining.value(scalar)) }
}
