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
        shop.trace:3: FAIL block    script https://tracker.example.net/t.js
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
        let objects = try json.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 3)
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
}
