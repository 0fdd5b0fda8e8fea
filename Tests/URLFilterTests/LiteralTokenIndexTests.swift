import Testing
@testable import URLFilter

/// The word index that finds a blocklist's literals in a URL: the keys it takes, and — over
/// thousands of random literals and texts — that it and the automaton, for the literals it
/// leaves, find exactly the literals a plain search finds.
@Suite("literal word index")
struct LiteralTokenIndexTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func describe(_ keys: [LiteralTokenIndex.Key]) -> [String] {
        keys.map { "\($0.kind) \(String(decoding: $0.bytes, as: UTF8.self)) @\($0.offset)\($0.isCommon ? " common" : "")" }
    }

    @Test(arguments: [
        // A word between two of the literal's separators is whole in every URL that holds it.
        ("-ad-manager/", ["word ad @1", "word manager @4"]),
        ("/api/direct/", ["word api @1 common", "word direct @5"]),
        // A run from a separator to the end: a URL word that begins with its first three.
        ("/funcript", ["prefix fun @1"]),
        // A run from the start to a separator: a URL word that ends with its last three.
        ("xhamster.com", ["suffix ter @8", "prefix com @9 common"]),
        // An affix of a word nearly every URL holds is as common as the word: `tps` ends
        // every `https`, so the literal is found by a rarer word.
        ("https://a.pr-cy.ru", ["suffix tps @5 common", "word a @8", "word pr @10", "word cy @13"]),
        ("/doubleclick.min", ["word doubleclick @1", "prefix min @13 common"]),
        // Too short to stand for the start or end of a word.
        ("ab.cd", []),
        // One run could sit inside any longer word: no key, the automaton finds it.
        ("adserver", []),
    ])
    func aLiteralsKeys(literal: String, expected: [String]) {
        #expect(Self.describe(LiteralTokenIndex.keys(of: Self.bytes(literal))) == expected)
    }

    /// A literal is found by its rarest key that no common word would bring up in nearly every
    /// URL: `tps` (of `https`) and `min` (of `.min.js`) were taken before the real lists'
    /// rarer words, and every URL compared their literals.
    @Test(arguments: [
        (["https://a.pr-cy.ru"], ["word pr @10"]),
        (["/doubleclick.min", "/doubleclick/", "doubleclick.net/ads"], ["word doubleclick @1", "word doubleclick @1", "suffix ick @11"]),
        // The word fewer literals share.
        (["/api/direct/", "/api/direct/v2/"], ["word direct @5", "word v2 @12"]),
        (["adserver", "/ads/"], ["none", "word ads @1"]),
    ])
    func aLiteralTakesItsRarestUncommonKey(literals: [String], expected: [String]) {
        let chosen = LiteralTokenIndex.chosenKeys(literals.map(Self.bytes))
        #expect(chosen.map { $0.map { Self.describe([$0])[0] } ?? "none" } == expected)
    }

    /// The literals found in `text` by the index and, for the ones it leaves, the automaton.
    static func found(_ literals: [[UInt8]], in text: [UInt8]) throws -> Set<Int> {
        var writer = ImageWriter()
        let rest = LiteralTokenIndex.write(literals.enumerated().map { ($0.element, $0.offset) }, idCount: literals.count, into: &writer)
        AhoCorasick.write(rest, into: &writer)
        var reader = ImageReader(ImageBytes(copying: writer.bytes))
        let index = try LiteralTokenIndex(reading: &reader, idCount: literals.count)
        let automaton = try AhoCorasick(reading: &reader, idCount: literals.count)
        var found = Set<Int>()
        text.withUnsafeBufferPointer { buffer in
            index.scan(buffer) { found.insert($0) }
            automaton.scan(buffer) { found.insert($0) }
        }
        return found
    }

    static func contains(_ text: [UInt8], _ literal: [UInt8]) -> Bool {
        guard literal.count <= text.count else { return false }
        return (0...(text.count - literal.count)).contains { text[$0..<($0 + literal.count)].elementsEqual(literal) }
    }

    @Test func findsWhatAPlainSearchFinds() throws {
        var generator = SplitMix64(state: 0x5EED_0F_11)
        let alphabet = Self.bytes("abc01/.-?=_")
        var compared = 0, present = 0
        for _ in 0..<300 {
            let literals = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                (0..<Int.random(in: 3...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            }
            for _ in 0..<20 {
                // Random bytes with a few of the literals in them, at word edges and inside words.
                var text: [UInt8] = []
                for _ in 0..<Int.random(in: 0...6, using: &generator) {
                    text += (0..<Int.random(in: 0...5, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                    if Bool.random(using: &generator) { text += literals.randomElement(using: &generator)! }
                }
                let expected = Set(literals.indices.filter { Self.contains(text, literals[$0]) })
                #expect(try Self.found(literals, in: text) == expected, "\(literals.map { String(decoding: $0, as: UTF8.self) }) in '\(String(decoding: text, as: UTF8.self))'")
                compared += 1
                present += expected.count
            }
        }
        #expect(compared == 6_000)
        #expect(present > 1_000, "the texts must hold literals for the comparison to say anything")
    }

    /// An index of a few literals searches for each directly; the random texts above hold
    /// both kinds of index to a plain search (1 to 40 literals).
    @Test func aFewLiteralsAreSearchedForOneByOne() throws {
        for (count, direct) in [(1, true), (LiteralTokenIndex.fewLiterals, true), (LiteralTokenIndex.fewLiterals + 1, false)] {
            let literals = (0..<count).map { Self.bytes("/path\($0)word/") }
            var writer = ImageWriter()
            _ = LiteralTokenIndex.write(literals.enumerated().map { ($0.element, $0.offset) }, idCount: count, into: &writer)
            var reader = ImageReader(ImageBytes(copying: writer.bytes))
            let index = try LiteralTokenIndex(reading: &reader, idCount: count)
            #expect(index.searchesEachLiteral == direct, "\(count) literals")
            #expect(try Self.found(literals, in: Self.bytes("https://x.example/path0word/y")) == [0])
        }
    }

    @Test func aBlocklistsPathLiteralsAllHaveAKey() throws {
        let literals = ["-ad-manager/", "/adserver/", "/api/direct/", "/funcript", "xhamster.com", "=bt1zdxy1jni9", "mkto-", "/1.gif?", ".com/4/js/"].map(Self.bytes)
        var writer = ImageWriter()
        let rest = LiteralTokenIndex.write(literals.enumerated().map { ($0.element, $0.offset) }, idCount: literals.count, into: &writer)
        #expect(rest.isEmpty, "left to the automaton: \(rest.map { String(decoding: $0.literal, as: UTF8.self) })")
        #expect(try Self.found(literals, in: Self.bytes("https://www.xhamster.com/funcript/x/adserver/1.gif?mkto-a")) == [1, 3, 4, 6, 7])
    }

    /// Literals that could only share one key go to the automaton, past a few dozen: a URL word
    /// that is the key would otherwise compare every one of them.
    @Test func aKeyManyLiteralsShareIsLeftToTheAutomaton() throws {
        // Each `ab-gif-`'s only key is the word `gif`: its first run is too short to stand for
        // the end of a URL word.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let literals = (0..<200).map { Self.bytes("\(letters[$0 / 26])\(letters[$0 % 26])-gif-") }
        var writer = ImageWriter()
        let rest = LiteralTokenIndex.write(literals.enumerated().map { ($0.element, $0.offset) }, idCount: literals.count, into: &writer)
        #expect(rest.count == 200)
        #expect(try Self.found(literals, in: Self.bytes("https://a.example/ar-gif-b")) == [17])
        let few = Array(literals.prefix(LiteralTokenIndex.maximumSharing))
        var fewWriter = ImageWriter()
        #expect(LiteralTokenIndex.write(few.enumerated().map { ($0.element, $0.offset) }, idCount: few.count, into: &fewWriter).isEmpty)
    }

    @Test func aDamagedTableIsRefused() throws {
        var writer = ImageWriter()
        _ = LiteralTokenIndex.write([(Self.bytes("/ads/"), 0)], idCount: 1, into: &writer)
        var reader = ImageReader(ImageBytes(copying: writer.bytes))
        // Read as if there were two literals: the bytes table says one.
        #expect(throws: ImageError.self) { try LiteralTokenIndex(reading: &reader, idCount: 2) }
    }
}
