import Foundation
import Testing
import TestSupport

/// Rules the sources keep that no compiler checks: where unsafe code may live
/// (docs/decisions.md, "Where unsafe code lives") and what the app-linked libraries show.
@Suite("Sources: unsafe code in its places")
struct SourceRulesTests {
    /// What counts as unsafe byte access: the pointer types, the scoped accessors, unchecked
    /// unwrapping and raw loads and stores.
    static let unsafePattern = try! NSRegularExpression(
        pattern: #"\bUnsafe(Mutable)?(Raw)?(Buffer)?Pointer\b|\bwithUnsafe\w*|\bunsafeBitCast\b|\bunsafelyUnwrapped\b|\bassumingMemoryBound\b|\bbindMemory\b|\bwithMemoryRebound\b|\bOpaquePointer\b|\bloadUnaligned\b|\bstoreBytes\b"#)

    /// The byte-level home: anything goes.
    static let home = "Sources/URLFilter/Bytes/"

    /// The libraries an app links.
    static let appLinked = ["Sources/URLFilter/", "Sources/WebPolicyRuntime/", "Sources/WebPolicyWebKit/"]

    /// Every Swift file under Sources/, relative to the repository, with its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = Repository.path("")
        let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/Sources"))
        var files: [(String, String)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let path = "Sources/" + relative
            files.append((path, try String(contentsOfFile: root + "/" + path, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The files docs/decisions.md lets keep unsafe code: the list under its heading.
    static func allowedFiles() throws -> Set<String> {
        let text = try String(contentsOfFile: Repository.path("docs/decisions.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Where unsafe code lives").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var files: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("- `Sources/") {
            let path = line.dropFirst(3).prefix { $0 != "`" }
            files.insert(String(path))
        }
        return files
    }

    /// A file's text without its comments, so that prose about a pointer is not a pointer.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("//") ? "" : String(line)
        }.joined(separator: "\n")
    }

    static func usesUnsafe(_ text: String) -> Bool {
        let code = code(text)
        return unsafePattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
    }

    @Test func unsafeCodeLivesOnlyInItsHomeAndTheFilesTheDocsName() throws {
        let allowed = try Self.allowedFiles()
        #expect(!allowed.isEmpty, "docs/decisions.md's list of files was not found")
        let sources = try Self.sources()
        let offenders = sources.filter { !$0.path.hasPrefix(Self.home) && !allowed.contains($0.path) && Self.usesUnsafe($0.text) }.map(\.path)
        #expect(offenders.isEmpty, "unsafe code outside Sources/URLFilter/Bytes/ and the files docs/decisions.md names: \(offenders)")
        let existing = Set(sources.map(\.path))
        let unneeded = sources.filter { allowed.contains($0.path) && !Self.usesUnsafe($0.text) }.map(\.path)
        let missing = allowed.subtracting(existing)
        #expect(unneeded.isEmpty, "docs/decisions.md lets these keep unsafe code they no longer have: \(unneeded)")
        #expect(missing.isEmpty, "docs/decisions.md names files that do not exist: \(missing.sorted())")
    }

    @Test func theKitsUnsafeCodeIsOnlyTheTraceReaderAndCInterfaces() throws {
        // The tooling's own unsafe code: the trace reader's hot path and two C interfaces.
        let kit = try Self.allowedFiles().filter { $0.hasPrefix("Sources/WebPolicyKit/") }
        #expect(kit.allSatisfy { $0.hasPrefix("Sources/WebPolicyKit/Simulate/") || $0.hasSuffix("YAMLComposer.swift") || $0.hasSuffix("ArtefactWriter.swift") },
                "\(kit.sorted())")
    }

    /// Each public declaration of an app-linked library, from `public` to its body or end of
    /// line: a signature over several lines is read whole.
    @Test func noPublicDeclarationOfAnAppLinkedLibraryMentionsAnUnsafeType() throws {
        var found: [String] = []
        for file in try Self.sources() where Self.appLinked.contains(where: file.path.hasPrefix) {
            let lines = Self.code(file.text).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.contains("public ") || line.hasPrefix("public") {
                // The declaration runs to its opening brace (or its line's end, for a property).
                var declaration = String(line)
                var next = index + 1
                while !declaration.contains("{"), declaration.contains("("), declaration.filter({ $0 == "(" }).count > declaration.filter({ $0 == ")" }).count, next < lines.count {
                    declaration += " " + lines[next]
                    next += 1
                }
                let signature = declaration.split(separator: "{", maxSplits: 1).first.map(String.init) ?? declaration
                if signature.range(of: #"\bUnsafe\w*Pointer\b"#, options: .regularExpression) != nil {
                    found.append("\(file.path):\(index + 1)")
                }
            }
        }
        #expect(found.isEmpty, "public declarations that show an unsafe type to an app: \(found)")
    }
}
