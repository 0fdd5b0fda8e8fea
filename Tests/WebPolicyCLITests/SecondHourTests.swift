import Foundation
import Testing

/// A new user's first hour, second pass: an iOS developer adopting webpolicy for a hybrid app —
/// a CMS web app calling native code through an `AppInterface` bridge, deep links, legacy
/// plain-http hosts, an offline package, a session cookie — met these; each a test of the binary.
@Suite("a new user's first hour, second pass (the binary)")
struct SecondHourTests {
    static func lint(_ policy: String, _ arguments: [String] = []) throws -> CommandRunner.Result {
        let folder = try CommandRunner.makeFolder(["p.yaml": policy])
        return try CommandRunner.run(["lint", "p.yaml"] + arguments, in: folder)
    }

    static func ruleIDs(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("p.yaml:") }.compactMap { line in
            line.range(of: "[", options: .backwards).map { String(line[$0.upperBound...].dropLast()) }
        }
    }

    /// Lints `sections` of a policy named navida: its findings are exactly `rules`, in order,
    /// and its output says each of `saying`.
    static func expect(_ sections: String, findings rules: [String], saying: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try lint("webpolicy: 1\nname: navida\n" + sections).stdout
        #expect(ruleIDs(output) == rules, "\(output)", sourceLocation: sourceLocation)
        for text in saying { #expect(output.contains(text), "\(output)", sourceLocation: sourceLocation) }
    }

    /// The CMS blocks some third-party scripts on its pages.
    static let blockTrackerScripts = """
        content-rules:
          - id: block-trackers
            action: block
            url-filter: "tracker"
            resource-type: [script]
            load-type: [third-party]

        """

    // 1a. A token in cleartext, on purpose or not, is said.
    @Test func aTokenCookieForAPlainHTTPHostIsAWarningWithHowToAcceptIt() throws {
        try Self.expect("""
            http-allowlist:
              - host: legacy-cms.navida-pro.de
                reason: The CMS preview server has no TLS.
            cookies:
              - name: cms_preview
                value: "${CMS_PREVIEW_TOKEN}"
                domain: legacy-cms.navida-pro.de
                host-only: true

            """, findings: ["cookie-credential-cleartext"], saying: ["suppress this on the cookie with the reason"])
    }

    // 1b. A bridge scheme no page has: a typo of the app's own scheme.
    @Test func aMisspeltBridgeSchemeIsSaidWithTheSchemeMeant() throws {
        try Self.expect("""
            interception:
              - scheme: navidapro-offline
                serve: Offline/cms
            bridges:
              - name: AppInterface
                origins: [cms.navida-pro.de]
                schemes: [https, navidapro-ofline]

            """, findings: ["bridge-scheme-unserved"], saying: ["did you mean 'navidapro-offline'?"])
    }

    // 2. One wrong entry is one finding: no advice that rests on it.
    @Test func aPublicSuffixWildcardIsOneErrorWithoutKnockOnAdvice() throws {
        try Self.expect("""
            http-allowlist:
              - host: legacy-cms.navida-pro.de
                reason: The CMS preview server has no TLS.
              - host: "*.de"
                reason: A mistake.
            cookies:
              - name: consent
                value: "1"
                domain: www.navida-pro.de
                host-only: true
                secure: true

            """, findings: ["host-public-suffix-wildcard"])
    }

    @Test func anOriginWrittenAsAURLIsOneErrorAndItsFix() throws {
        try Self.expect(Self.blockTrackerScripts + """
            navigation:
              pages:
                - host: cms.navida-pro.de
            bridges:
              - name: AppInterface
                origins: ["https://cms.navida-pro.de/"]
                world: client

            """, findings: ["invalid-value"], saying: ["fix: write the host 'cms.navida-pro.de' (webpolicy lint --fix)"])
    }

    @Test func aMisspeltWebSchemeIsNotAlsoAnUnreachableOrigin() throws {
        try Self.expect("""
            navigation:
              pages:
                - host: cms.navida-pro.de
            bridges:
              - name: AppInterface
                origins: [cms.navida-pro.de]
                schemes: [htps]

            """, findings: ["bridge-scheme-unserved"], saying: ["did you mean 'https'?"])
    }

    @Test func aPageWorldBridgeIsOfferedTheBlockThatKeepsTheWebAppCalling() throws {
        try Self.expect(Self.blockTrackerScripts + """
            bridges:
              - name: AppInterface
                origins: [cms.navida-pro.de]

            """, findings: ["bridge-page-world-third-party"],
            saying: ["blocks only the third-party scripts it matches", "load-type: [third-party], if-domain: [*navida-pro.de]'", "as policies/webapp-plugin.yaml does"])
    }

    @Test func hintsSpeakOfTheTargetAsItIs() throws {
        let childDocument = try Self.lint("""
            webpolicy: 1
            name: navida
            target: { ios: "16.0" }
            content-rules:
              - action: block
                url-filter: "ads"
                resource-type: [child-document]

            """)
        #expect(childDocument.stdout.contains("before iOS 26.0, write 'resource-type: [document]' with 'load-context: [child-frame]'"), "\(childDocument.stdout)")
    }

    // 5. The starter has a piece of every section a first policy needs.
    @Test func theStarterHasInterceptionABridgeAndTheWebView() throws {
        let folder = try CommandRunner.makeFolder([:])
        #expect(try CommandRunner.run(["init"], in: folder).status == 0)
        let policy = try String(contentsOf: folder.appendingPathComponent("policies/app.yaml"), encoding: .utf8)
        for section in ["http-allowlist:", "scheme-allowlist:", "content-rules:", "cookies:", "interception:", "navigation:", "bridges:", "webview:"] {
            #expect(policy.contains("\n" + section + "\n"), "the starter lacks \(section)")
        }
        // Editor completion in the team's own repository: the schema beside the policy, named by its first line.
        #expect(policy.hasPrefix("# yaml-language-server: $schema=webpolicy.schema.json\n"))
        let schema = try String(contentsOf: folder.appendingPathComponent("policies/webpolicy.schema.json"), encoding: .utf8)
        #expect(schema == (try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("schemas/webpolicy.schema.json"), encoding: .utf8)))
        #expect(try CommandRunner.run(["schema"], in: folder).stdout == schema)
        let simulated = try CommandRunner.run(["simulate", "policies"], in: folder)
        #expect(simulated.status == 0, "\(simulated.stdout)")
        #expect(simulated.stdout.hasSuffix("12 passed, 0 failed\n"), "\(simulated.stdout)")
        #expect(try CommandRunner.run(["lint", "policies"], in: folder).stdout == "no problems in 1 file\n")
    }

    // 7. A trace whose policy is not there says so at its header.
    @Test func aMissingPolicyIsTheTracesProblemAtItsLine() throws {
        let folder = try CommandRunner.makeFolder(["t.trace": "policy: missing.yaml\npage https://a.example.com/\n"])
        let result = try CommandRunner.run(["simulate", "t.trace"], in: folder)
        #expect(result.status == 2)
        #expect((result.stdout + result.stderr).contains("t.trace:1:9: error: the policy this trace names, missing.yaml, does not exist [trace]\n"), "\(result.stdout)\(result.stderr)")
    }

    // 7. Through a SwiftPM plugin, a finding names the plugin's fix command.
    @Test func aFixNamesTheCommandThePluginGaveAndIsUnsafeWhenItIs() throws {
        let policy = "webpolicy: 1\nname: p\nscheme-allowlist:\n  - scheme: navidapro://\nhttp-allowlist:\n  - host: \"*.legacy.example.com\"\n    reason: old\n"
        let command = "swift package --allow-writing-to-package-directory webpolicy-fix"
        let result = try Self.lint(policy, ["--fix-command", command])
        #expect(result.stdout.contains("fix: write 'navidapro' (\(command))"), "\(result.stdout)")
        #expect(result.stdout.contains("(\(command) --unsafe-fixes)"), "\(result.stdout)")
        #expect(!result.stdout.contains("webpolicy lint --fix"))
    }

    // 7. explain takes the iframe a subresource is loaded by.
    @Test func explainTakesTheFrameOfASubresource() throws {
        let policy = "webpolicy: 1\nname: p\ncontent-rules:\n  - id: widget-scripts\n    action: block\n    url-filter: \"tracker\"\n    if-frame-url: [\"^https://widget\\\\.example\\\\.org/\"]\ntarget: { ios: \"18.0\" }\n"
        let folder = try CommandRunner.makeFolder(["p.yaml": policy])
        let inFrame = try CommandRunner.run(["explain", "--policy", "p.yaml", "https://tracker.example.net/t.js", "--type", "script",
                                             "--top", "https://shop.example.com/", "--frame", "https://widget.example.org/embed"], in: folder)
        #expect(inFrame.status == 0, "\(inFrame.stderr)")
        #expect(inFrame.stdout.contains("made by the iframe showing https://widget.example.org/embed"))
        #expect(inFrame.stdout.contains("verdict: block"), "\(inFrame.stdout)")
        let inPage = try CommandRunner.run(["explain", "--policy", "p.yaml", "https://tracker.example.net/t.js", "--type", "script", "--top", "https://shop.example.com/"], in: folder)
        #expect(inPage.stdout.contains("verdict: allow"), "\(inPage.stdout)")
    }

    // 5. The trace line limit is the documented one, and its error and the NUL byte's quote the line.
    @Test func aLineOverOneMiBAndANulByteAreShownWhereTheyAre() throws {
        let long = "policy: p.yaml\npage https://a.example.com/" + String(repeating: "a", count: 1_500_000) + "\n"
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\n", "long.trace": long, "nul.trace": "policy: p.yaml\npage https://a.example.com/x\u{0}y\n"])
        let result = try CommandRunner.run(["simulate", "long.trace"], in: folder)
        #expect(result.status == 2)
        let output = result.stdout + result.stderr
        #expect(output.contains("long.trace:2:1048577: error: line 2 is longer than 1024 KB (1 MiB)"), "\(output.prefix(300))")
        #expect(output.contains("2 | …aaaa"))
        let nul = try CommandRunner.run(["simulate", "nul.trace"], in: folder)
        #expect((nul.stdout + nul.stderr).contains("2 | page https://a.example.com/x␀\n"), "\(nul.stdout)\(nul.stderr)")
    }

    // 4. The engine cache is seen and bounded.
    @Test func theCacheIsShownBoundedAndCleaned() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\ncontent-rules:\n  - action: block\n    url-filter: ads\n",
                                                    "q.yaml": "webpolicy: 1\nname: q\ncontent-rules:\n  - action: block\n    url-filter: tracker\n",
                                                    "p.trace": "policy: p.yaml\npage https://a.example/\n", "q.trace": "policy: q.yaml\npage https://a.example/\n"])
        let cache = folder.appendingPathComponent("cache").path
        _ = try CommandRunner.run(["simulate", "--cache-dir", cache, "p.trace"], in: folder)
        let shown = try CommandRunner.run(["cache", "--cache-dir", cache], in: folder)
        #expect(shown.stdout.hasPrefix("\(cache): 1 engine image, "), "\(shown.stdout)")
        #expect(shown.stdout.contains("(keeps 16, within 512.0 MB)"))
        // Over the size limit, the least recently used goes; the newest stays.
        _ = try CommandRunner.run(["simulate", "--cache-dir", cache, "q.trace"], in: folder, environment: ["WEBPOLICY_CACHE_MAX_MB": "0"])
        #expect(try CommandRunner.run(["cache", "--cache-dir", cache], in: folder).stdout.hasPrefix("\(cache): 1 engine image, "))
        let cleaned = try CommandRunner.run(["cache", "--cache-dir", cache, "--clean"], in: folder)
        #expect(cleaned.stdout.hasPrefix("removed "), "\(cleaned.stdout)")
        #expect(try CommandRunner.run(["cache", "--cache-dir", cache], in: folder).stdout.hasPrefix("\(cache): 0 engine images, 0 KB"))
    }
}
