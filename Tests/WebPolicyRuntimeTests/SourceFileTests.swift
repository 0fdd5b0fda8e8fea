import Testing
import URLFilter
import WebPolicyRuntime

/// The line table breaks where libyaml does — \r\n, \r, \n, U+0085, U+2028, U+2029 — and
/// nowhere else, whatever the bytes around a break.
@Suite("Source file lines")
struct SourceFileTests {
    /// Lines as a scalar-by-scalar reading finds them.
    func referenceLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n", previous == "\r" { continue }
            if ["\r", "\n", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }

    @Test func linesMatchAScalarByScalarReading() {
        // Breaks, and scalars that share bytes with the breaks' encodings (Â is C2 82, … is E2 80 A6).
        let alphabet: [Unicode.Scalar] = ["a", "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{C2}", "\u{82}", "\u{2026}", "\u{E2}", "é", "\u{1F600}", "\t", "\u{0B}", "\u{0C}"]
        var random = SplitMix64(state: 11)
        for round in 0..<4_000 {
            // Long runs of plain ASCII, too: the scan skips eight such bytes at a time.
            let length = Int(random.next() % (round % 2 == 0 ? 12 : 48))
            // A quarter of the texts break lines with \n alone (no \r, C2 or E2 byte): the fast path.
            let letters = round % 4 == 3 ? ["a", "\n", "é", "\u{1F600}", "\t"] : alphabet
            let text = String(String.UnicodeScalarView((0..<length).map { _ in
                random.next() % 3 == 0 ? letters[Int(random.next() % UInt64(letters.count))] : "x"
            }))
            let file = SourceFile(path: "t.yaml", text: text)
            let expected = referenceLines(text)
            #expect(file.lineCount == expected.count, "\(text.debugDescription)")
            for (number, line) in expected.enumerated() {
                #expect(String(file.line(number + 1)) == line, "\(text.debugDescription) line \(number + 1)")
            }
            // The end: just after the last line's last scalar.
            #expect(file.endPosition == SourcePosition(line: expected.count, column: expected[expected.count - 1].unicodeScalars.count + 1), "\(text.debugDescription)")
        }
    }

    /// A line from a column on, as a report quotes a window of a minified list: the same
    /// scalars as dropping the columns before it, on short lines and on long ones (which jump
    /// through checkpoints), ASCII or not, at every column near the checkpoints' edges.
    @Test func aLineFromAColumnIsTheLineWithoutTheColumnsBefore() {
        let alphabet: [Unicode.Scalar] = ["a", "é", "\u{1F600}", "\"", "\\", "\u{2026}"]
        var random = SplitMix64(state: 7)
        for length in [0, 1, 300, 1_023, 1_024, 5_000, 70_000] {
            for asciiOnly in [true, false] {
                let line = String(String.UnicodeScalarView((0..<length).map { _ in asciiOnly ? "x" : alphabet[Int(random.next() % UInt64(alphabet.count))] }))
                let file = SourceFile(path: "l.json", text: "[\n" + line + "\n]\n")
                let scalars = Array(line.unicodeScalars)
                var columns = [1, 2, length, length + 1, length + 5, 0, -3]
                for edge in stride(from: 256, to: length, by: 256) { columns += [edge - 1, edge, edge + 1, edge + 2] }
                for _ in 0..<20 where length > 0 { columns.append(1 + Int(random.next() % UInt64(length))) }
                for column in columns {
                    let (part, count) = file.line(2, fromColumn: column)
                    #expect(count == scalars.count, "length \(length)")
                    #expect(Array(part) == Array(scalars.dropFirst(max(column - 1, 0))), "length \(length), column \(column)")
                }
            }
        }
    }

    /// libyaml's marks count scalars; the byte count of them goes eight bytes at a time.
    @Test func scalarCountCountsWhatUnicodeScalarsCounts() {
        let alphabet: [Unicode.Scalar] = ["a", "\n", "é", "\u{80}", "\u{7FF}", "\u{800}", "€", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{10FFFF}", "\u{0}"]
        var random = SplitMix64(state: 3)
        for _ in 0..<1_000 {
            let length = Int(random.next() % 40)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
            #expect(SourceFile.scalarCount(text) == text.unicodeScalars.count, "\(text.debugDescription)")
            let tail = text.dropFirst(length / 3)
            #expect(SourceFile.scalarCount(tail) == tail.unicodeScalars.count, "\(text.debugDescription)")
        }
    }
}
