import Testing
@testable import URLFilter

/// The matcher reads a URL eight bytes at a time where it lowercases it and cuts it into
/// words: each such step must give, for every byte at every place of a chunk and at every
/// length, what the byte-at-a-time definition gives.
@Suite("eight bytes at a time")
struct EightBytesAtATimeTests {
    /// `wordBytes` flags exactly the bytes `isWordByte` admits, each byte value at each place.
    @Test func wordBytesAreIsWordBytesAnswers() {
        var generator = SplitMix64(state: 0x30D5)
        var wrong: [String] = []
        for value in 0...255 {
            for place in 0..<8 {
                var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                bytes[place] = UInt8(value)
                let flagged = LiteralTokenIndex.wordBytes(bytes.withUnsafeBufferPointer { EightBytes.load($0, at: 0) })
                for (index, byte) in bytes.enumerated() where (flagged >> UInt64(8 * index + 7)) & 1 != (LiteralTokenIndex.isWordByte(byte) ? 1 : 0) {
                    wrong.append("\(bytes) at \(index)")
                }
                #expect(flagged & ~0x8080_8080_8080_8080 == 0)
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// A word hashes the same inside a URL, at any offset and next to its end (where a chunk is
    /// put together a byte at a time), as alone, which is how its key was written; and words of
    /// a different length or a byte apart hash apart.
    @Test func aWordsHashDoesNotDependOnWhereItLies() {
        var generator = SplitMix64(state: 0x4A54)
        let alphabet = Array("abcxyz0129".utf8)
        var hashes: [UInt64: [UInt8]] = [:]
        for _ in 0..<3_000 {
            let word = (0..<Int.random(in: 0...27, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let before = (0..<Int.random(in: 0...11, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let after = (0..<Int.random(in: 0...9, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let alone = word.withUnsafeBufferPointer { LiteralTokenIndex.hash($0, from: 0, count: $0.count) }
            let inside = (before + word + after).withUnsafeBufferPointer { LiteralTokenIndex.hash($0, from: before.count, count: word.count) }
            #expect(alone == inside, "\(String(decoding: word, as: UTF8.self)) after \(before.count) bytes, before \(after.count)")
            if let other = hashes[alone] { #expect(other == word, "\(other) and \(word) hash alike") }
            hashes[alone] = word
        }
        #expect(hashes.count > 2_000)
    }

    /// `lowercasedPrefix` is `lowercase` of each byte up to the first NUL or byte beyond
    /// ASCII, at every length and with such a byte at every place.
    @Test func aURLLowercasedEightBytesAtATimeIsLowercasedByteByByte() {
        var generator = SplitMix64(state: 0x10E5)
        let common = Array("AZaz@[`{09:/?=.-_%".utf8)
        for _ in 0..<4_000 {
            var url = (0..<Int.random(in: 0...40, using: &generator)).map { _ in common.randomElement(using: &generator)! }
            if !url.isEmpty, Int.random(in: 0..<3, using: &generator) == 0 {
                url[Int.random(in: 0..<url.count, using: &generator)] = [0, 0x80, 0xC3, 0xFF, 0x7F].randomElement(using: &generator)!
            }
            let expectedCount = url.firstIndex { $0 == 0 || $0 >= 0x80 } ?? url.count
            let expected = url.prefix(expectedCount).map(RequiredLiteral.lowercase)
            let lowered = [UInt8](unsafeUninitializedCapacity: url.count) { buffer, initialized in
                initialized = url.withUnsafeBufferPointer { RequiredLiteral.lowercasedPrefix(of: $0, into: buffer) }
            }
            #expect(lowered == expected, "\(url)")
        }
    }
}
