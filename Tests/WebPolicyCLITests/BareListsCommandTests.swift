import Foundation
import Testing

/// Several bare content-blocker lists through `lint` and `import`: each checked and converted
/// on its own, as WebKit compiles each list on its own.
@Suite("lint and import of bare lists (the binary)")
struct BareListsCommandTests {
    static let vendor = """
    [
      {"trigger": {"url-filter": "ads\\\\.example"}, "action": {"type": "block"}},
      {"trigger": {"url-filter": ".*"}, "action": {"type": "block-cookies"}},
      {"trigger": {"url-filter": "x", "foo": 1}, "action": {"type": "block"}}
    ]

    """
    static let refused = """
    [
      {"trigger": {"url-filter": "^https://a\\\\.example/"}, "action": {"type": "block"}},
      {"trigger": {"url-filter": "(a|b)x"}, "action": {"type": "block"}}
    ]

    """
    static let clean = #"[{"trigger": {"url-filter": "^https://t\\.example/"}, "action": {"type": "block"}}]"# + "\n"

    @Test func lintChecksEachListAtItsOwnLinesAndColumns() throws {
        let folder = try CommandRunner.makeFolder(["vendor.json": Self.vendor, "refused.json": Self.refused, "clean.json": Self.clean])
        let result = try CommandRunner.run(["lint", "vendor.json", "refused.json", "clean.json", "--color", "never"], in: folder)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }.map(String.init)
        #expect(lines == [
            "refused.json:3:33: error: rule 2: the url-filter is refused by WebKit's url-filter parser: Disjunctions are not supported yet. (WebKit: JSONInvalidRegex, \"Invalid or unsupported regular expression.\") [import-webkit-error]",
            // A lint rule's finding, moved from the imported policy to the list's own member.
            "vendor.json:3:30: warning: the url-filter '.*' matches every URL, and nothing else in the trigger narrows it: the rule acts on every load of the web view [url-filter-matches-everything]",
            "vendor.json:4:35: warning: rule 3: WebKit ignores the trigger key 'foo' [import-ignored-member]",
        ])
        #expect(result.stdout.hasSuffix("1 error, 2 warnings in 3 files\n"))
        #expect(!result.stdout.contains("as a policy>"))

        let alone = try CommandRunner.run(["lint", "clean.json"], in: folder)
        #expect(alone.status == 0, "\(alone.stdout)")
    }

    /// A minified list — one line of megabytes — with thousands of findings: each is quoted as
    /// a window of the line around its column, and a rule's place in a message is the list's
    /// (the policy it is linted as exists only in memory). Once, every finding copied the whole
    /// line: 20,000 rules took minutes.
    @Test func aMinifiedListIsQuotedByWindowsAndPlacedInItself() throws {
        let rules = (0..<3_000).map { index in #"{"trigger":{"url-filter":"ads-\#(index / 2)\\.example"},"action":{"type":"block"}}"# }
        let folder = try CommandRunner.makeFolder(["min.json": "[" + rules.joined(separator: ",") + "]"])
        let result = try CommandRunner.run(["lint", "min.json", "--color", "never"], in: folder)
        #expect(result.status == 0, "warnings only: \(result.stderr)")
        #expect(result.stdout.hasSuffix("1500 warnings in 1 file\n"), "\(result.stdout.suffix(200))")
        #expect(result.stdout.contains("min.json:1:73: warning: this rule repeats the one at line 1, column 2: same trigger, same action [content-rule-dead]"), "\(result.stdout.prefix(600))")
        // Every quoted line is a window: no output line is longer than the window and its frame.
        let longest = result.stdout.split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest < 200, "a line of \(longest) characters")
    }

    /// The list's rules are linted where they are written: a finding about one character of a
    /// string points at that character inside the JSON string, and a message naming another
    /// rule gives its line when each rule has a line of its own.
    @Test func findingsPointIntoTheListsOwnStrings() throws {
        let list = """
        [
          {"trigger": {"url-filter": "ads", "if-domain": ["ex(ample).com"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "track"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "track"}, "action": {"type": "block"}}
        ]

        """
        let folder = try CommandRunner.makeFolder(["list.json": list])
        let result = try CommandRunner.run(["lint", "list.json", "--color", "never"], in: folder)
        #expect(result.status == 0, "warnings only: \(result.stdout)")
        let lines = result.stdout.split(separator: "\n").filter { $0.contains(": warning: ") }.map(String.init)
        #expect(lines.count == 2, "\(result.stdout)")
        // Column 54 is the '(' inside "ex(ample).com".
        #expect(lines.first?.hasPrefix("list.json:2:54: warning: the if-domain domain 'ex(ample).com' holds '('") == true, "\(lines)")
        #expect(lines.last == "list.json:4:3: warning: this rule repeats the one at line 3: same trigger, same action [content-rule-dead]")
    }

    @Test func lintReportsAListWebKitCannotRead() throws {
        let folder = try CommandRunner.makeFolder(["broken.json": "[{\"trigger\": {\"url-filter\": \"a\"}, \"action\": {\"type\": \"block\"}}\n", "policy.json": "{\"webpolicy\": 1}\n"])
        let result = try CommandRunner.run(["lint", "broken.json", "policy.json", "--format", "json"], in: folder)
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(findings.compactMap { $0["file"] as? String } == ["broken.json", "policy.json"])
        // A JSON object with `webpolicy:` is a policy, whatever its extension (it misses its name).
        #expect(findings.compactMap { $0["rule"] as? String } == ["import-json-syntax", "missing-key"])
        #expect(findings.compactMap { $0["line"] as? Int } == [2, 1])
    }

    @Test func lintRefusesAListOverWebKitsRuleLimit() throws {
        let rule = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#
        let folder = try CommandRunner.makeFolder(["huge.json": "[" + Array(repeating: rule, count: 150_001).joined(separator: ",\n") + "]\n"])
        let result = try CommandRunner.run(["lint", "huge.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("huge.json:1:1: error: the list has 150001 rules; WebKit refuses a list of more than 150000 [compile-list-size]"))
    }

    @Test func importWritesOnePolicyPerListIntoAFolder() throws {
        let folder = try CommandRunner.makeFolder(["vendor.json": Self.vendor, "clean.json": Self.clean])
        let result = try CommandRunner.run(["import", "vendor.json", "clean.json", "-o", "imported"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote imported/vendor.yaml (3 content rules)\nwrote imported/clean.yaml (1 content rules)\n")
        let vendor = try String(contentsOf: folder.appendingPathComponent("imported/vendor.yaml"), encoding: .utf8)
        #expect(vendor.contains("name: vendor\n"))
        #expect(try CommandRunner.run(["lint", "imported"], in: folder).status == 0)

        let again = try CommandRunner.run(["import", "vendor.json", "clean.json", "-o", "imported"], in: folder)
        #expect(again.status == 2)
        #expect(again.stderr.contains("imported/vendor.yaml exists; pass --force to replace it"))
    }

    @Test func importWritesNothingWhenAnyListFails() throws {
        let folder = try CommandRunner.makeFolder(["clean.json": Self.clean, "refused.json": Self.refused])
        let result = try CommandRunner.run(["import", "clean.json", "refused.json", "-o", "out"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("refused.json:3:33: error: rule 2:"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/clean.yaml").path))
    }

    @Test func severalListsNeedAFolderAndTheirOwnNames() throws {
        let folder = try CommandRunner.makeFolder(["a.json": Self.clean, "b.json": Self.clean, "sub/a.json": Self.clean, "file.yaml": "x"])
        let cases: [([String], String)] = [
            (["import", "a.json", "b.json"], "give --output a folder"),
            (["import", "a.json", "b.json", "-o", "-"], "give --output a folder"),
            (["import", "a.json", "b.json", "--name", "x", "-o", "out"], "--name names one policy"),
            (["import", "a.json", "sub/a.json", "-o", "out"], "two lists would both be written to out/a.yaml"),
            (["import", "a.json", "b.json", "-o", "file.yaml"], "file.yaml is a file"),
        ]
        for (arguments, message) in cases {
            let result = try CommandRunner.run(arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
}
