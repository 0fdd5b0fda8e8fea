import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("webpolicy simulate (the binary)")
struct SimulateCommandTests {
    static let policy = """
    webpolicy: 1
    name: shop
    http-allowlist:
      - host: legacy.example.com
        reason: old CMS
    content-rules:
      - id: block-trackers
        action: block
        hosts: [tracker.example.net]
      - id: upgrade
        action: make-https
        url-filter: '^http://www\\.example\\.com/'

    """

    @Test func theExamplePoliciesTracesPass() throws {
        let result = try CommandRunner.run(["simulate"] + (try FileManager.default.contentsOfDirectory(atPath: CommandRunner.repositoryRoot.appendingPathComponent("policies").path)
            .filter { $0.hasSuffix(".trace") }.sorted().map { "policies/" + $0 }))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    @Test func aWrongExpectationFailsAndNamesTheDecidingRuleAndItsLine() throws {
        let trace = "policy: shop.yaml\npage https://www.example.com/ expect=allow\nscript https://tracker.example.net/t.js expect=allow\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "shop.trace": trace])
        let result = try CommandRunner.run(["simulate", "shop.trace"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout == """
        shop.trace:3: FAIL block     script https://tracker.example.net/t.js
          expected allow, got block
          why: content rule 'block-trackers' (shop.yaml:7) [host tracker.example.net] blocks it
        1 passed, 1 failed

        """)
    }

    @Test func traceErrorsAreReportedAtLineAndColumnWithExitTwo() throws {
        let trace = "policy: shop.yaml\npage https://www.example.com/ expect=alow\nscrpt https://x.example/\nimage https://x.example/ colour=red\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "shop.trace": trace])
        let result = try CommandRunner.run(["simulate", "shop.trace"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("shop.trace:2:38: error: 'alow' is not a verdict"), "\(result.stderr)")
        #expect(result.stderr.contains("shop.trace:3:1: error: 'scrpt' is neither a request type nor a URL (did you mean 'script'?)"))
        #expect(result.stderr.contains("shop.trace:4:26: error: unknown key 'colour'"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aHARCaptureSimulatesAndRecordsIntoATraceThatPasses() throws {
        let har = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/simulate/har/news-site.har"), encoding: .utf8)
        let policy = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("policies/https-and-trackers.yaml"), encoding: .utf8)
        let folder = try CommandRunner.makeFolder(["capture.har": har, "policy.yaml": policy])
        let replay = try CommandRunner.run(["simulate", "--policy", "policy.yaml", "capture.har"], in: folder)
        #expect(replay.status == 0)
        #expect(replay.stdout.hasSuffix("14 requests without expectations\n0 passed, 0 failed\n"))
        let record = try CommandRunner.run(["simulate", "--policy", "policy.yaml", "capture.har", "--record"], in: folder)
        #expect(record.status == 0)
        let trace = try String(contentsOf: folder.appendingPathComponent("capture.trace"), encoding: .utf8)
        #expect(trace.contains("policy: policy.yaml\npage http://news.example.com/today expect=upgrade\n"))
        #expect(trace.contains("script https://tracker.example.net/t.js expect=block\n"))
        #expect(trace.contains("fetch https://news.example.com/api/reactions method=POST expect=allow\n"))
        let check = try CommandRunner.run(["simulate", "capture.trace"], in: folder)
        #expect(check.status == 0)
        #expect(check.stdout == "14 passed, 0 failed\n")
    }

    /// A browser's export saved as `.json` (or with no extension) is a capture; a folder
    /// replays its captures beside its traces, a capture whose trace was recorded beside it
    /// once, as that trace.
    @Test func aCaptureUnderAnotherNameAndCapturesInAFolderAreReplayed() throws {
        let har = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/simulate/har/news-site.har"), encoding: .utf8)
        let policy = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("policies/https-and-trackers.yaml"), encoding: .utf8)
        let folder = try CommandRunner.makeFolder(["policy.yaml": policy, "export.json": har, "export": har,
                                                   "captures/a.har": har, "captures/b.har": har, "captures/.hidden.har": "broken"])
        for name in ["export.json", "export"] {
            let replay = try CommandRunner.run(["simulate", "--policy", "policy.yaml", name], in: folder)
            #expect(replay.status == 0, "\(name): \(replay.stderr)")
            #expect(replay.stdout.hasSuffix("14 requests without expectations\n0 passed, 0 failed\n"), "\(name)")
        }
        let both = try CommandRunner.run(["simulate", "--policy", "policy.yaml", "captures", "--format", "summary"], in: folder)
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.contains("\"traces\":2"), "\(both.stdout)")
        // Recorded: a.trace holds a.har's expectations, and a.har is replayed as it.
        #expect(try CommandRunner.run(["simulate", "--policy", "policy.yaml", "captures/a.har", "--record"], in: folder).status == 0)
        let recorded = try CommandRunner.run(["simulate", "--policy", "policy.yaml", "captures", "--format", "summary"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("\"traces\":2"), "a.trace and b.har: \(recorded.stdout)")
        #expect(recorded.stdout.contains("\"passed\":14"), "a.trace's expectations hold: \(recorded.stdout)")
    }

    @Test func recordingInPlaceKeepsCommentsAndOrder() throws {
        let trace = "# shop checks\npolicy: shop.yaml\n\npage https://www.example.com/ expect=block   # wrong on purpose\nimage http://www.example.com/a.png\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "shop.trace": trace])
        #expect(try CommandRunner.run(["simulate", "shop.trace", "--record"], in: folder).status == 0)
        let recorded = try String(contentsOf: folder.appendingPathComponent("shop.trace"), encoding: .utf8)
        #expect(recorded == "# shop checks\npolicy: shop.yaml\n\npage https://www.example.com/ expect=allow   # wrong on purpose\nimage http://www.example.com/a.png expect=upgrade\n")
    }

    @Test func jsonIsOneObjectPerRequestAndJUnitParses() throws {
        let trace = "policy: shop.yaml\npage http://www.example.com/ expect=upgrade\nimage http://legacy.example.com/a.png expect=allow\nimage http://other.example.com/a.png expect=allow\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "shop.trace": trace])
        let json = try CommandRunner.run(["simulate", "shop.trace", "--format", "json"], in: folder)
        #expect(json.status == 1)
        var objects = try json.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 4)
        // The last line sums the run up.
        let summary = objects.removeLast()["summary"] as? [String: Any]
        #expect(summary?["requests"] as? Int == 3 && summary?["passed"] as? Int == 2 && summary?["failed"] as? Int == 1)
        #expect(summary?["verdicts"] as? [String: Int] == ["allow": 1, "block": 1, "upgrade": 1, "intercept": 0])
        for key in ["line", "url", "type", "top", "verdict", "expected", "pass", "finalURL", "actions", "matchedRules", "cookies", "hiddenSelectors"] {
            #expect(objects.allSatisfy { $0[key] != nil }, "missing \(key)")
        }
        #expect(objects[0]["finalURL"] as? String == "https://www.example.com/")
        #expect(objects[0]["actions"] as? [String] == ["make-https"])
        #expect((objects[0]["matchedRules"] as? [[String: Any]])?.first?["id"] as? String == "upgrade")
        #expect(objects[2]["verdict"] as? String == "block" && objects[2]["pass"] as? Bool == false)
        let junit = try CommandRunner.run(["simulate", "shop.trace", "--format", "junit"], in: folder)
        #expect(junit.status == 1)
        let document = try XMLDocument(xmlString: junit.stdout)
        #expect(try document.nodes(forXPath: "//testcase").count == 3)
        #expect(try document.nodes(forXPath: "//failure").count == 1)
    }

    @Test func aBareContentBlockerListDoesOnlyWhatWebKitDoes() throws {
        let list = #"[{"trigger": {"url-filter": "tracker"}, "action": {"type": "block"}}]"#
        let trace = "page http://plain.example.com/ expect=allow\nscript https://x.example/tracker.js expect=block\n"
        let folder = try CommandRunner.makeFolder(["list.json": list, "t.trace": trace])
        let result = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "2 passed, 0 failed\n")
    }

    /// `--content-rules` given twice is two lists, each on its own (it used to simulate the
    /// last alone): a block in the first list stands although the second list's
    /// `ignore-previous-rules` matches the same load.
    @Test func severalListsAreEachTheirOwnList() throws {
        let blocking = #"[{"trigger": {"url-filter": "ads"}, "action": {"type": "block"}}]"#
        let ignoring = #"[{"trigger": {"url-filter": "ads"}, "action": {"type": "block-cookies"}}, {"trigger": {"url-filter": "ads"}, "action": {"type": "ignore-previous-rules"}}]"#
        let trace = "page https://site.example/\nscript https://site.example/ads.js expect=block actions=block\n"
        let folder = try CommandRunner.makeFolder(["block.json": blocking, "ignore.json": ignoring, "t.trace": trace])
        let both = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "block.json", "--content-rules", "ignore.json", "--verbose"], in: folder)
        #expect(both.status == 0, "\(both.stdout)\(both.stderr)")
        #expect(both.stdout.contains("why: content rule #2 (ignore.json:1) cancels the rules before it; content rule #1 (block.json:1) blocks it"), "\(both.stdout)")
        let last = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "ignore.json"], in: folder)
        #expect(last.status == 1)
        // A list that does not parse stops the simulation and is named, whichever it is.
        let broken = try CommandRunner.makeFolder(["block.json": blocking, "bad.json": "[{]", "t.trace": trace])
        let refused = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "block.json", "--content-rules", "bad.json"], in: broken)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("bad.json:1:"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }

    @Test func aPolicyWithLintErrorsIsNotSimulated() throws {
        let broken = Self.policy.replacingOccurrences(of: "'^http://www\\.example\\.com/'", with: "'a|b'")
        let folder = try CommandRunner.makeFolder(["shop.yaml": broken, "shop.trace": "policy: shop.yaml\npage https://www.example.com/\n"])
        let result = try CommandRunner.run(["simulate", "shop.trace"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("shop.yaml:12:19: error:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func missingInputsExitTwo() throws {
        let folder = try CommandRunner.makeFolder(["t.trace": "page https://x.example/\n"])
        #expect(try CommandRunner.run(["simulate", "missing.trace"], in: folder).status == 2)
        let noPolicy = try CommandRunner.run(["simulate", "t.trace"], in: folder)
        #expect(noPolicy.status == 2)
        #expect(noPolicy.stderr.contains("t.trace names no policy"))
        #expect(try CommandRunner.run(["simulate"], in: folder).status == 2)
    }

    @Test func aTraceOnStandardInputSimulatesLikeTheFile() throws {
        let trace = "page https://www.example.com/ expect=allow\nscript https://tracker.example.net/t.js expect=block\nimage https://x.example/a.png expect=allow\n"
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "t.trace": trace])
        let fromFile = try CommandRunner.run(["simulate", "t.trace", "--policy", "shop.yaml", "--format", "summary"], in: folder)
        let fromStandardInput = try CommandRunner.run(["simulate", "-", "--policy", "shop.yaml", "--format", "summary"], in: folder, stdin: trace)
        #expect(fromStandardInput.status == 0, "\(fromStandardInput.stderr)")
        #expect(fromStandardInput.stdout == fromFile.stdout)
        #expect(fromFile.stdout == #"{"summary":{"traces":1,"requests":3,"passed":3,"failed":0,"unchecked":0,"verdicts":{"allow":2,"block":1,"upgrade":0,"intercept":0}}}"# + "\n")
        // Problems on standard input are placed in <stdin>, with the line quoted.
        let broken = try CommandRunner.run(["simulate", "-", "--policy", "shop.yaml"], in: folder, stdin: "page https://x.example/\nscrpt https://x.example/\n")
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("<stdin>:2:1: error: 'scrpt' is neither a request type nor a URL"), "\(broken.stderr)")
        #expect(broken.stderr.contains("scrpt https://x.example/"))
    }

    @Test func aStreamedTraceReportsEncodingAndLineProblemsAtTheirPlace() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy])
        let cases: [(name: String, bytes: [UInt8], message: String)] = [
            ("nul.trace", Array("page https://x.example/\nimage https://x.example/a\u{0}b\n".utf8), "nul.trace:2:26: error: nul.trace holds a NUL byte"),
            ("latin1.trace", Array("page https://x.example/\n".utf8) + [0x69, 0x6D, 0x61, 0x67, 0x65, 0x20, 0xE9, 0x0A], "latin1.trace:2:7: error: latin1.trace is not valid UTF-8: byte 0xE9"),
            ("utf16.trace", [0xFF, 0xFE, 0x70, 0x00], "utf16.trace:1:1: error: utf16.trace is UTF-16"),
            ("empty.trace", Array("  \n\n".utf8), "empty.trace:1:1: error: empty.trace is empty"),
            ("long.trace", Array(("page https://x.example/" + String(repeating: "a", count: 1_100_000)).utf8), "long.trace:1:1048577: error: line 1 is longer than 1024 KB"),
        ]
        for (name, bytes, message) in cases {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            let result = try CommandRunner.run(["simulate", name, "--policy", "shop.yaml"], in: folder)
            #expect(result.status == 2, "\(name)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        }
        // Line breaks as libyaml counts them: CR LF, CR, NEL, LS, PS.
        let breaks = "page https://x.example/\r\nscript https://tracker.example.net/a.js expect=block\rimage https://x.example/a expect=allow\u{85}font https://x.example/f expect=allow\u{2028}fetch https://x.example/api expect=allow\u{2029}"
        try breaks.write(to: folder.appendingPathComponent("breaks.trace"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["simulate", "breaks.trace", "--policy", "shop.yaml"], in: folder)
        #expect(result.stdout.hasSuffix("4 passed, 0 failed\n"), "\(result.stdout)\(result.stderr)")
    }

    @Test func aLargeTraceStreamsInBlocksWithTheSameResultsInOrder() throws {
        // More lines than a block, so that blocks and their chunks on every core meet: the
        // results must come out in the trace's order, and pages must carry over between them.
        var trace = "policy: shop.yaml\n"
        var expected: [String] = []
        for index in 0..<80_000 {
            if index % 37 == 0 {
                trace += "page https://www.site\(index % 11).example/\(index)\n"
                expected.append("allow")
            } else if index % 5 == 0 {
                trace += "script https://tracker.example.net/\(index).js\n"
                expected.append("block")
            } else {
                trace += "image http://legacy.example.com/\(index).png\n"
                expected.append("allow")
            }
        }
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.policy, "big.trace": trace])
        let json = try CommandRunner.run(["simulate", "big.trace", "--format", "json"], in: folder)
        #expect(json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let requests = lines.filter { $0["verdict"] != nil }
        #expect(requests.map { $0["line"] as? Int } == (2...80_001).map { $0 })
        #expect(requests.map { $0["verdict"] as? String } == expected)
        // Each request's top document is the page before it, across block boundaries.
        #expect(requests.allSatisfy { ($0["top"] as? String)?.hasPrefix("https://www.site") ?? false })
        #expect(requests[40_000]["top"] as? String == "https://www.site\(39_997 % 11).example/39997")
    }

    @Test func summariesOfShardsAddUpToTheWhole() throws {
        let folder = try CommandRunner.makeFolder([
            "a.jsonl": #"{"summary":{"traces":1,"requests":3,"passed":1,"failed":0,"unchecked":2,"verdicts":{"allow":2,"block":1,"upgrade":0,"intercept":0}}}"# + "\n",
            "b.jsonl": #"{"trace":"x","line":2,"verdict":"block"}"# + "\n" + #"{"summary":{"traces":1,"requests":2,"passed":0,"failed":1,"unchecked":1,"verdicts":{"allow":0,"block":1,"upgrade":1,"intercept":0}}}"# + "\n",
            "bad.jsonl": "{\"summary\": 1}\nnot json\n",
        ])
        let merged = try CommandRunner.run(["merge-summaries", "a.jsonl", "b.jsonl"], in: folder)
        #expect(merged.status == 1)
        #expect(merged.stdout == #"{"summary":{"traces":2,"requests":5,"passed":1,"failed":1,"unchecked":3,"verdicts":{"allow":2,"block":2,"upgrade":1,"intercept":0}}}"# + "\n")
        let human = try CommandRunner.run(["merge-summaries", "--format", "human", "-"], in: folder, stdin: try String(contentsOf: folder.appendingPathComponent("a.jsonl"), encoding: .utf8))
        #expect(human.stdout == "3 requests in 1 trace: 2 allow, 1 block, 0 upgrade, 0 intercept\n1 passed, 0 failed\n")
        let bad = try CommandRunner.run(["merge-summaries", "bad.jsonl"], in: folder)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.jsonl:1:1: error: a summary object holds traces, passed, failed, unchecked and verdicts"), "\(bad.stderr)")
        #expect(bad.stderr.contains("bad.jsonl:2:2: error: not a JSON line"), "\(bad.stderr)")
        #expect(try CommandRunner.run(["merge-summaries", "-"], in: folder, stdin: "").status == 2)
    }

    /// Shards on a cluster (docs/scale.md): an empty partition is an empty shard, not an error,
    /// and a shard that says where it was cut from has its errors placed in the whole trace.
    @Test func shardsOnStandardInput() throws {
        let folder = try CommandRunner.makeFolder(["list.json": #"[{"trigger": {"url-filter": "ads"}, "action": {"type": "block"}}]"#, "empty.trace": ""])
        let empty = try CommandRunner.run(["simulate", "-", "--content-rules", "list.json", "--format", "summary"], in: folder, stdin: "")
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout == #"{"summary":{"traces":1,"requests":0,"passed":0,"failed":0,"unchecked":0,"verdicts":{"allow":0,"block":0,"upgrade":0,"intercept":0}}}"# + "\n")
        let emptyFile = try CommandRunner.run(["simulate", "empty.trace", "--content-rules", "list.json"], in: folder)
        #expect(emptyFile.status == 2 && emptyFile.stderr.contains("empty.trace:1:1: error: empty.trace is empty"), "\(emptyFile.stderr)")
        let shard = "origin: day.trace:1234\npage https://a.example/\nimage https://a.example/ads.png expect=block\nimage htps//bad\n"
        let failing = try CommandRunner.run(["simulate", "-", "--content-rules", "list.json"], in: folder, stdin: shard)
        #expect(failing.status == 2)
        #expect(failing.stderr.contains("day.trace:1236:7: error: the URL 'htps//bad' does not parse"), "\(failing.stderr)")
        let json = try CommandRunner.run(["simulate", "-", "--content-rules", "list.json", "--format", "json"], in: folder, stdin: String(shard.dropLast("image htps//bad\n".count)))
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#"{"trace":"day.trace","line":1235,"url":"https://a.example/ads.png""#), "\(json.stdout)")
    }

    @Test func universalRulesAreWrittenOncePerPageAndReferenced() throws {
        // Two universal rules (one per site), a blocking rule, and an exception that cancels
        // everything before it on one URL: that request cannot refer to the shared record.
        let list = """
        [{"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad"}},
         {"trigger": {"url-filter": ".*", "if-domain": ["*news.example"]}, "action": {"type": "css-display-none", "selector": "#promo"}},
         {"trigger": {"url-filter": "tracker"}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "allowed-tracker"}, "action": {"type": "ignore-previous-rules"}}]
        """
        let trace = "page https://www.news.example/\nscript https://x.example/tracker.js\nimage https://x.example/a.png\nscript https://x.example/allowed-tracker.js\npage https://shop.example/\nimage https://shop.example/b.png\n"
        let folder = try CommandRunner.makeFolder(["list.json": list, "t.trace": trace])
        let result = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json", "--format", "json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let records = lines.filter { $0["shared"] != nil && $0["verdict"] == nil }
        let requests = lines.filter { $0["verdict"] != nil }
        // The rule that holds on every page is written once for the whole trace; the one of
        // a single site stays with that site's requests.
        #expect(records.count == 1, "\(records)")
        #expect(records.first?["hiddenSelectors"] as? [String] == [".ad"])
        #expect((records.first?["matchedRules"] as? [[String: Any]])?.map { $0["rule"] as? Int } == [0])
        #expect(requests.map { $0["shared"] as? String } == ["s1", "s1", "s1", nil, "s1", "s1"])
        #expect(requests[0]["hiddenSelectors"] as? [String] == ["#promo"])
        #expect(requests[5]["hiddenSelectors"] as? [String] == [])
        #expect(requests[1]["verdict"] as? String == "block")
        #expect((requests[1]["matchedRules"] as? [[String: Any]])?.map { $0["rule"] as? Int } == [1, 2])
        #expect(requests[3]["hiddenSelectors"] as? [String] == [], "the exception cancels the universal rules too")
        #expect((requests[3]["matchedRules"] as? [[String: Any]])?.map { $0["rule"] as? Int } == [0, 1, 2, 3])
        // The human view still shows a request's whole result.
        let human = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json", "--verbose"], in: folder)
        #expect(human.stdout.contains("t.trace:3:      allow     image https://x.example/a.png\n  why: no surviving content rule blocks or upgrades it\n  hidden: .ad, #promo\n"), "\(human.stdout)")
    }

    /// A real list hides thousands of selectors on every page: the human report shows the
    /// first eight and how many more, JSON every one.
    @Test func theHumanReportShowsAFewHiddenSelectorsAndHowManyMore() throws {
        let rules = (1...11).map { #"{"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad\#($0)"}}"# }
        let folder = try CommandRunner.makeFolder(["list.json": "[" + rules.joined(separator: ",\n") + "]", "t.trace": "page https://www.news.example/\nimage https://x.example/a.png\n"])
        let human = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json", "--verbose"], in: folder)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.contains("  hidden: .ad1, .ad2, .ad3, .ad4, .ad5, .ad6, .ad7, .ad8 and 3 more (--format json lists every selector)\n"), "\(human.stdout)")
        let json = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json", "--format", "json"], in: folder)
        #expect(json.stdout.contains(#""hiddenSelectors":[".ad1",".ad2",".ad3",".ad4",".ad5",".ad6",".ad7",".ad8",".ad9",".ad10",".ad11"]"#), "\(json.stdout)")
        // One rule's selector list can be longer than a line: cut at the line's width.
        let long = (1...40).map { ".banner-\($0)" }.joined(separator: ", ")
        let wide = try CommandRunner.makeFolder(["list.json": #"[{"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": "\#(long)"}}]"#,
                                                 "t.trace": "page https://www.news.example/\n"])
        let cut = try CommandRunner.run(["simulate", "t.trace", "--content-rules", "list.json", "--verbose"], in: wide)
        let hidden = cut.stdout.split(separator: "\n").first { $0.hasPrefix("  hidden: ") } ?? ""
        #expect(hidden.hasPrefix("  hidden: .banner-1, .banner-2,") && hidden.hasSuffix("… (--format json lists every selector)"), "\(cut.stdout)")
        #expect(hidden.count < 220, "\(hidden)")
    }
}
