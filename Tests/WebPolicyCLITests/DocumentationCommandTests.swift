import Foundation
import Testing
import TestSupport

/// Every command block of README.md and docs/*.md, run as a reader runs it: from the
/// repository root (a fresh copy of it per block), through a shell, with the built
/// `webpolicy` on PATH. A `$ webpolicy …` line must print what the block shows after it
/// (stdout, then stderr; a line `…` stands for any lines); any other line that starts with
/// `webpolicy` must run without an input error (exit 0 or 1). Lines of other programs
/// (`swift build`, `cp`, `pre-commit`) are not run. An HTML comment on the line before a
/// block adjusts it (docs/decisions.md, "Documentation that runs"):
///
/// - `<!-- doc-test: skip — REASON -->`: not run, for the reason given;
/// - `<!-- doc-test: needs WebKitGTK -->`: run where WebKitGTK is installed (CI installs it);
/// - `<!-- doc-test: with NAME = PATH, … -->`: the reader's own file NAME is this repository's
///   PATH.
@Suite("documentation commands (the binary)")
struct DocumentationCommandTests {
    struct Block: CustomTestStringConvertible, Sendable {
        var file: String
        var line: Int
        var body: [String]
        var marker: String?
        var testDescription: String { "\(file):\(line)" }
    }

    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: CommandRunner.repositoryRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// The fenced shell blocks of every document that run webpolicy.
    static let blocks: [Block] = documents.flatMap { document -> [Block] in
        guard let text = try? String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent(document), encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index]
            guard fence.hasPrefix("```"), ["sh", "console", "shell", "bash"].contains(String(fence.dropFirst(3))) else {
                index += 1
                continue
            }
            let start = index
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            let previous = start > 0 ? lines[start - 1].trimmingCharacters(in: .whitespaces) : ""
            let marker = previous.hasPrefix("<!-- doc-test:") ? String(previous.dropFirst("<!-- doc-test:".count).dropLast("-->".count)).trimmingCharacters(in: .whitespaces) : nil
            if body.contains(where: { Self.command(in: $0) != nil }) {
                blocks.append(Block(file: document, line: start + 1, body: body, marker: marker))
            }
        }
        return blocks
    }

    /// The webpolicy command a line runs, without its `$ ` prompt; nil for other lines.
    static func command(in line: String) -> String? {
        let text = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
        return text.hasPrefix("webpolicy ") || text == "webpolicy" ? text : nil
    }

    /// As `webpolicy verify` looks for it (`RealWebKit.python`).
    static let hasWebKitGTK: Bool = {
        let python = ProcessInfo.processInfo.environment["WEBPOLICY_WEBKIT_PYTHON"] ?? "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? CommandRunner.runProgram(python, ["-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"]).status) == 0
    }()

    @Test func everyDocumentHasItsBlocksFound() {
        // The README's own examples are among them, so a change to the parsing cannot
        // silently leave every block out.
        #expect(Self.blocks.contains { $0.file == "README.md" && $0.body.contains { $0.hasPrefix("$ webpolicy compile") } })
        #expect(Self.blocks.count >= 10, "\(Self.blocks.map(\.testDescription))")
    }

    @Test(arguments: blocks)
    func commandBlockRunsAsShown(block: Block) throws {
        if let marker = block.marker, marker.hasPrefix("skip") {
            #expect(marker.count > "skip — ".count, "a skipped block says why")
            return
        }
        if block.marker == "needs WebKitGTK", !Self.hasWebKitGTK { return }
        let root = try Self.freshRoot(with: block.marker)
        defer { try? FileManager.default.removeItem(at: root) }
        var steps: [(command: String, shown: [String]?)] = []
        var collecting = false
        for line in Self.joiningContinuations(block.body) {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), []))
                collecting = true
            } else if collecting {
                steps[steps.count - 1].shown?.append(line)
            } else if let command = Self.command(in: line) {
                steps.append((command, nil))
            }
        }
        for step in steps where Self.command(in: step.command) != nil {
            let result = try CommandRunner.runProgram("/bin/sh", ["-c", step.command], in: root,
                                                      environment: ["PATH": CommandRunner.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
            #expect(result.status == 0 || result.status == 1, "\(block.testDescription): `\(step.command)` exited \(result.status): \(result.stderr)")
            guard let shown = step.shown else { continue }
            let actual = (result.stdout + result.stderr).components(separatedBy: "\n").map { $0.trimmingTrailingWhitespace }
            #expect(Self.matches(actual.droppingTrailingEmpty, shown.map(\.trimmingTrailingWhitespace).droppingTrailingEmpty),
                    "\(block.testDescription): `\(step.command)` printed:\n\(actual.joined(separator: "\n"))")
        }
    }

    /// Lines ending in `\` joined with the next, as the shell reads them.
    static func joiningContinuations(_ lines: [String]) -> [String] {
        var joined: [String] = []
        var pending: String?
        for line in lines {
            let text = pending.map { $0 + "\n" + line } ?? line
            if line.hasSuffix("\\") {
                pending = text
            } else {
                joined.append(text)
                pending = nil
            }
        }
        if let pending { joined.append(pending) }
        return joined
    }

    /// Shown lines against printed ones; a shown `…` line stands for any lines.
    static func matches(_ actual: [String], _ shown: [String]) -> Bool {
        guard let first = shown.first else { return actual.isEmpty }
        if first == "…" {
            let rest = Array(shown.dropFirst())
            return (0...actual.count).contains { matches(Array(actual.dropFirst($0)), rest) }
        }
        guard let line = actual.first, line == first else { return false }
        return matches(Array(actual.dropFirst()), Array(shown.dropFirst()))
    }

    /// A copy of what a reader's checkout holds that commands write into (`policies/`), the
    /// rest linked, and the files a `with` marker names.
    static func freshRoot(with marker: String?) throws -> URL {
        let repository = CommandRunner.repositoryRoot
        let root = TemporaryFolder.location("webpolicy-docs")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("policies"), to: root.appendingPathComponent("policies"))
        for linked in ["Tests", "schemas", "ci", "docs", "README.md"] {
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(linked), withDestinationURL: repository.appendingPathComponent(linked))
        }
        if let marker, marker.hasPrefix("with ") {
            for pair in marker.dropFirst("with ".count).split(separator: ",") {
                let parts = pair.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                try FileManager.default.copyItem(at: repository.appendingPathComponent(parts[1]), to: root.appendingPathComponent(parts[0]))
            }
        }
        return root
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var text = self
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

extension Array where Element == String {
    fileprivate var droppingTrailingEmpty: [String] {
        var lines = self
        while lines.last == "" { lines.removeLast() }
        return lines
    }
}
