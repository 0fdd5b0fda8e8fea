import Foundation
import Testing
import URLFilter
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Seeded random edits of valid policies — characters deleted, inserted, replaced by YAML
/// punctuation, lines truncated — must never crash the loader or the rules, and every
/// diagnostic must point inside the file it names.
@Suite("Loader fuzzing")
struct LoaderFuzzTests {
    static let seed: UInt64 = 0x00C0_FFEE_2026
    static let alphabet = Array(":-[]{}&*!|>'\"#\\\n \t,?%@`é日\u{0}xa1")


    static func mutate(_ text: String, using generator: inout SplitMix64) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !characters.isEmpty else { break }
            let index = Int.random(in: 0..<characters.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: characters.remove(at: index)
            case 1: characters.insert(alphabet.randomElement(using: &generator)!, at: index)
            case 2: characters[index] = alphabet.randomElement(using: &generator)!
            default:
                if let end = characters[index...].firstIndex(of: "\n") { characters.removeSubrange(index..<end) }
            }
        }
        return String(characters)
    }

    @Test func mutatedPoliciesNeverCrashAndPointInsideTheirFile() throws {
        let folder = Repository.path("Tests/Fixtures/lint/ok")
        let originals = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
        var generator = SplitMix64(state: Self.seed)
        for iteration in 0..<1_500 {
            let original = originals[iteration % originals.count]
            let text = Self.mutate(original, using: &generator)
            let report = Linter().lint(text: text, path: "fuzz.yaml")
            let file = SourceFile(path: "fuzz.yaml", text: text)
            for diagnostic in report.diagnostics where diagnostic.location.path == "fuzz.yaml" {
                let start = diagnostic.location.range.start
                #expect(start.line >= 1 && start.line <= file.lineCount, "\(diagnostic) in:\n\(text)")
                #expect(start.column >= 1 && start.column <= file.line(start.line).count + 1, "\(diagnostic) in:\n\(text)")
            }
            #expect(report.diagnostics == Diagnostic.normalized(report.diagnostics))
        }
    }
}
