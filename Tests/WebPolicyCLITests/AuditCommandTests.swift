import Foundation
import Testing
import TestSupport

/// `webpolicy audit` on the fixture apps (Tests/Fixtures/audit: Swift, Objective-C, XML and
/// binary plists, a storyboard and a xib): golden outputs in human and json, the inventory
/// without a policy, every audit rule reported by at least one app, the traps silent, and the
/// draft `init --from-app` writes linting clean and auditing without a mismatch. Record the
/// goldens with WEBPOLICY_RECORD=1.
@Suite("audit (the binary)")
struct AuditCommandTests {
    static let fixtures = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/audit")
    static let apps = ["swift-shop", "swiftui-shop", "objc-legacy", "mixed-app", "home-server", "script-splices", "swiftui-scripts", "swiftui-home"]
    static var isRecording: Bool { ProcessInfo.processInfo.environment["WEBPOLICY_RECORD"] == "1" }

    /// Audits a fixture app, with its `webpolicy.yml` when it has one (the working folder's
    /// `.webpolicy.yml` is the repository's).
    static func audit(_ app: String, _ arguments: [String]) throws -> CommandRunner.Result {
        let config = fixtures.appendingPathComponent(app).appendingPathComponent("webpolicy.yml")
        let configured = FileManager.default.fileExists(atPath: config.path) && !arguments.contains("--config")
            ? ["--config", "Tests/Fixtures/audit/\(app)/webpolicy.yml"] : []
        return try CommandRunner.run(["audit", "Tests/Fixtures/audit/\(app)/app"] + configured + arguments)
    }

    static func golden(_ output: String, _ app: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = fixtures.appendingPathComponent(app).appendingPathComponent(name)
        if isRecording { try output.write(to: url, atomically: true, encoding: .utf8) }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(output == expected, "\(app)/\(name) differs (record with WEBPOLICY_RECORD=1)", sourceLocation: sourceLocation)
    }

    @Test(arguments: apps, ["human", "json"])
    func findingsMatchTheGolden(app: String, format: String) throws {
        let result = try Self.audit(app, ["--policy", "Tests/Fixtures/audit/\(app)/policy.yaml", "--format", format, "--color", "never"])
        #expect(result.status == 1, "\(result.stderr)")
        try Self.golden(result.stdout, app, "expected.\(format == "human" ? "txt" : "json")")
    }

    /// The first run, with no policy: the hazards no policy makes safe.
    @Test(arguments: apps)
    func hazardsWithoutAPolicyMatchTheGolden(app: String) throws {
        let result = try Self.audit(app, ["--format", "human", "--color", "never"])
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        try Self.golden(result.stdout, app, "expected-no-policy.txt")
    }

    /// The reports a reviewer reads, for the first run on an app: JUnit with a case per rule and
    /// file that has findings, and the HTML page — errors first, the same ATS key in two
    /// Info.plists folded into one finding, the app's inventory as its own section.
    @Test func reviewersReportsMatchTheGolden() throws {
        let junit = try Self.audit("home-server", ["--format", "junit"])
        try Self.golden(junit.stdout, "home-server", "expected-no-policy.junit.xml")
        #expect(junit.stdout.contains("<testsuites name=\"webpolicy audit\" tests=\"12\" failures=\"9\""))
        let html = try Self.audit("home-server", ["--format", "html"])
        try Self.golden(html.stdout, "home-server", "expected-no-policy.html")
        #expect(html.stdout.contains("data-rule=\"ats-arbitrary-loads\" data-count=\"2\""))
        #expect(html.stdout.contains("in 2 Info.plists"))
        #expect(html.stdout.contains("<h2 id=\"inventory\">Inventory</h2>"))
        #expect(html.stdout.contains("<caption>URLs handed to the system (3)</caption>"))
        let errors = try #require(html.stdout.range(of: "id=\"severity-error\""))
        let warnings = try #require(html.stdout.range(of: "id=\"severity-warning\""))
        #expect(errors.lowerBound < warnings.lowerBound)
    }

    /// The traps of the release-hazard and script-splice checks: each line holding one of these
    /// is reported by no rule, with or without the app's policy.
    @Test func safeSplicesAndHazardTrapsStaySilent() throws {
        let traps = [
            "script-splices": ["setZoomEnabled", "document.body.style.zoom", "Scripts.insertText", "String(reflecting:", "JSText.quoted", "return String(data"],
            "home-server": ["allowsBackForwardNavigationGestures", "UserDefaults.standard.setValue", "Environment.webInspectorRequested {",
                            "#if DEBUG\n        webView.isInspectable = true"],
        ]
        for (app, snippets) in traps {
            for arguments in [["--format", "sarif"], ["--format", "sarif", "--policy", "Tests/Fixtures/audit/\(app)/policy.yaml"]] {
                let result = try Self.audit(app, arguments)
                let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
                let reported = Set(results.compactMap { result -> String? in
                    guard let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any],
                          let uri = (location["artifactLocation"] as? [String: Any])?["uri"] as? String,
                          let line = (location["region"] as? [String: Any])?["startLine"] as? Int else { return nil }
                    return "\(uri):\(line)"
                })
                let files = try FileManager.default.subpathsOfDirectory(atPath: Self.fixtures.appendingPathComponent("\(app)/app").path).filter { $0.hasSuffix(".swift") }
                for file in files {
                    let text = try String(contentsOf: Self.fixtures.appendingPathComponent("\(app)/app/\(file)"), encoding: .utf8)
                    for snippet in snippets {
                        guard let range = text.range(of: snippet) else { continue }
                        // The trap's last line: a multi-line snippet names the line that could be reported.
                        let line = text[..<range.upperBound].components(separatedBy: "\n").count
                        #expect(!reported.contains("Tests/Fixtures/audit/\(app)/app/\(file):\(line)"), "\(app)/\(file):\(line) (\(snippet)) was reported with \(arguments)")
                    }
                }
            }
        }
    }

    @Test(arguments: apps)
    func inventoryMatchesTheGolden(app: String) throws {
        let result = try Self.audit(app, ["--inventory"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any])
        try Self.golden(result.stdout, app, "inventory.json")
        // --format json reports the findings, with or without a policy, as every format does.
        let findings = try Self.audit(app, ["--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: Data(findings.stdout.utf8)) as? [String: Any])?["diagnostics"] != nil)
    }

    /// Every rule is reported by some fixture app; the examples of each rule are tested too
    /// (AuditRuleExampleTests), these are whole apps.
    @Test func everyRuleIsReportedByAFixtureApp() throws {
        var reported: Set<String> = []
        for app in Self.apps {
            let result = try Self.audit(app, ["--policy", "Tests/Fixtures/audit/\(app)/policy.yaml", "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            for diagnostic in object["diagnostics"] as? [[String: Any]] ?? [] { reported.insert(diagnostic["rule"] as? String ?? "") }
        }
        let rules = try CommandRunner.run(["rules", "--format", "json"])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(rules.stdout.utf8)) as? [String: Any])
        let auditRules = (all["rules"] as? [[String: Any]] ?? []).filter { ["app-code", "app-hazards"].contains($0["category"] as? String) }.compactMap { $0["id"] as? String }
        #expect(auditRules.count >= 28)
        #expect(Set(auditRules).subtracting(reported).sorted() == [])
    }

    /// What must stay silent: code in comments and strings, `#if DEBUG`, test targets,
    /// look-alike calls, declared bridges, a simulator-only branch, placeholders.
    @Test func trapsStaySilent() throws {
        var output = ""
        for app in Self.apps {
            output += try Self.audit(app, ["--policy", "Tests/Fixtures/audit/\(app)/policy.yaml", "--format", "json"]).stdout
        }
        for silent in ["debugBridge", "stringBridge", "commentedOut", "testOnly", "\"x\"", "debugConsole", "reader-sim", "EXTRA_SCHEME", "'cart'", "consoleLog", "ShopTests", "CommentsView"] {
            #expect(!output.contains(silent), "\(silent) was reported")
        }
    }

    @Test func debugConfigurationAuditsWhatOnlyDebugBuildsCompile() throws {
        let release = try Self.audit("objc-legacy", ["--policy", "Tests/Fixtures/audit/objc-legacy/policy.yaml", "--format", "json"])
        let debug = try Self.audit("objc-legacy", ["--policy", "Tests/Fixtures/audit/objc-legacy/policy.yaml", "--format", "json", "--configuration", "debug"])
        #expect(!release.stdout.contains("debugConsole"))
        #expect(debug.stdout.contains("the script message handler 'debugConsole' is registered"))
    }

    @Test func testTargetsAreReadWhenAsked() throws {
        let result = try Self.audit("swift-shop", ["--policy", "Tests/Fixtures/audit/swift-shop/policy.yaml", "--include-tests", "--format", "json"])
        #expect(result.stdout.contains("'testOnly'"))
    }

    @Test(arguments: apps)
    func aDraftFromTheAppLintsCleanAndAuditsWithoutAMismatch(app: String) throws {
        let folder = try TemporaryFolder.make("audit-draft")
        let draft = folder.appendingPathComponent("policies/app.yaml").path
        let written = try CommandRunner.run(["init", "--from-app", "Tests/Fixtures/audit/\(app)/app", "--output", draft])
        #expect(written.status == 0, "\(written.stderr)")
        let lint = try CommandRunner.run(["lint", draft])
        #expect(lint.status == 0, "\(lint.stdout)")
        let audit = try Self.audit(app, ["--policy", draft, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        // A mismatch may remain only where the app contradicts itself, and the draft said so
        // (the code sets a setting both ways, a limit WebKit needs for the app's bridges).
        let mismatches = (object["diagnostics"] as? [[String: Any]] ?? []).filter { diagnostic in
            let rule = diagnostic["rule"] as? String ?? ""
            guard Self.declarationRules.contains(rule), diagnostic["severity"] as? String != "info" else { return false }
            return !written.stderr.contains("\(diagnostic["file"] as? String ?? ""):\(diagnostic["line"] as? Int ?? 0)")
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// A draft describes the app without endorsing its hazards: inspectable false with the
    /// lines that say otherwise, ATS and every-scheme hand-offs as decide notes, queried schemes
    /// kept out of the allowlist, bridges with what the code's gate shows, the target from the
    /// XcodeGen spec (which outranks the project file it generates).
    @Test func aDraftDescribesWithoutEndorsing() throws {
        let folder = try TemporaryFolder.make("audit-draft-hazards")
        let draft = folder.appendingPathComponent("home.yaml").path
        let written = try CommandRunner.run(["init", "--from-app", "Tests/Fixtures/audit/home-server/app", "--output", draft])
        #expect(written.status == 0, "\(written.stderr)")
        let yaml = try String(contentsOfFile: draft, encoding: .utf8)
        // Comments are wrapped: read them as one line each.
        let comments = yaml.replacingOccurrences(of: "\n  # ", with: " ").replacingOccurrences(of: "\n# ", with: " ")
        #expect(yaml.contains("webview:\n  inspectable: false\n"))
        #expect(!yaml.contains("inspectable: true"))
        #expect(comments.contains("decide: the code makes the web view inspectable in release builds"))
        #expect(written.stderr.contains("ReaderViewController.swift:11") && written.stderr.contains("ServerViewController.swift:15"))
        #expect(!written.stderr.contains("ReaderViewController.swift:14"), "a test false in App Store builds is no hazard")
        #expect(comments.contains("decide: App Transport Security is off for every host"))
        #expect(!yaml.contains("scheme: firefox") && !yaml.contains("scheme: googlechrome") && !yaml.contains("scheme: shortcuts"))
        #expect(yaml.contains("  - scheme: mailto\n  - scheme: tel\n"))
        #expect(comments.contains("hands a new window's URL of every scheme but http and https to the system"))
        #expect(yaml.contains("  - name: externalBus\n    origins: ['${server}']\n    frames: main\n"))
        #expect(comments.contains("admits the main frame of origins it works out at run time: the draft names them by the role ${server}"))
        #expect(yaml.contains("runtime-hosts:\n  server:\n"))
        #expect(yaml.contains("    schemes: [https]\n"), "the draft never endorses plain http")
        #expect(!yaml.contains("the runtime's gate refuses every message"), "the app does not use the runtime")
        #expect(yaml.contains("target:\n  ios: '17.6'\n"))
        #expect(comments.contains("from Tests/Fixtures/audit/home-server/app/project.yml (an XcodeGen spec is read before"))
    }

    /// A setting the code weakens (the Safe Browsing warning off) is drafted at its safe
    /// value with the line that says otherwise; a product choice is drafted as the code says.
    @Test func aDraftKeepsAWeakenedSettingSafe() throws {
        let folder = try TemporaryFolder.make("audit-draft-settings")
        let draft = folder.appendingPathComponent("legacy.yaml").path
        let written = try CommandRunner.run(["init", "--from-app", "Tests/Fixtures/audit/objc-legacy/app", "--output", draft])
        #expect(written.status == 0, "\(written.stderr)")
        let yaml = try String(contentsOfFile: draft, encoding: .utf8)
        #expect(yaml.contains("webview:\n  javascript-can-open-windows: true\n  fraudulent-website-warning: true\n"))
        #expect(written.stderr.contains("decide: the code sets isFraudulentWebsiteWarningEnabled to false (Tests/Fixtures/audit/objc-legacy/app/Legacy/PortalViewController.m:29)"))
    }

    /// The rules that compare what the code does with what the policy declares.
    static let declarationRules: Set<String> = [
        "bridge-undeclared", "bridge-unregistered", "bridge-world-mismatch", "bridge-reply-mismatch", "scheme-handler-undeclared",
        "interception-unhandled", "inspectable-in-release", "javascript-mismatch", "javascript-windows-mismatch", "webview-setting-mismatch", "ats-exception-not-allowlisted",
        "ats-allowlisted-host-missing", "app-bound-plist-mismatch", "app-bound-limit-mismatch", "queries-schemes-mismatch",
    ]

    @Test func suppressionsBaselineSARIFAndGitHubWorkForAuditFindings() throws {
        let policy = "Tests/Fixtures/audit/swift-shop/policy.yaml"
        // The fixture's own suppression hides its finding and is not reported unused.
        let json = try Self.audit("swift-shop", ["--policy", policy, "--format", "json"]).stdout
        #expect(!json.contains("setTitle"))
        #expect(!json.contains("suppression-unused"))
        // A baseline accepts today's findings; the next run reports none and exits 0.
        let folder = try TemporaryFolder.make("audit-baseline")
        let baseline = folder.appendingPathComponent("baseline.json").path
        let recorded = try Self.audit("swift-shop", ["--policy", policy, "--write-baseline", baseline])
        #expect(recorded.status == 0)
        let after = try Self.audit("swift-shop", ["--policy", policy, "--baseline", baseline])
        #expect(after.status == 0, "\(after.stdout)")
        // SARIF names the audit rules; GitHub annotations point at the Swift lines.
        let sarif = try Self.audit("swift-shop", ["--policy", policy, "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        let rules = ((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        #expect(rules.contains { $0["id"] as? String == "bridge-undeclared" })
        let github = try Self.audit("swift-shop", ["--policy", policy, "--format", "github"])
        #expect(github.stdout.contains("::error file=Tests/Fixtures/audit/swift-shop/app/Shop/ShopViewController.swift,line=35,col=9"))
        // .webpolicy.yml turns an audit rule off.
        let config = folder.appendingPathComponent("webpolicy.yml")
        try "rules:\n  bridge-undeclared: off\n".write(to: config, atomically: true, encoding: .utf8)
        let configured = try Self.audit("swift-shop", ["--policy", policy, "--format", "json", "--config", config.path])
        #expect(!configured.stdout.contains("\"bridge-undeclared\""))
    }

    /// In an XML plist the suppression is an XML comment on the line before.
    @Test func aPlistFindingIsSuppressedByAnXMLComment() throws {
        let folder = try TemporaryFolder.make("audit-plist-suppression")
        let app = folder.appendingPathComponent("app")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("swift-shop/app"), to: app)
        let plist = app.appendingPathComponent("Shop/Resources/Info.plist")
        var lines = try String(contentsOf: plist, encoding: .utf8).components(separatedBy: "\n")
        let key = try #require(lines.firstIndex { $0.contains("<key>NSAllowsArbitraryLoadsInWebContent</key>") })
        lines.insert("\t\t<!-- webpolicy:disable-next-line ats-arbitrary-web-content -- the reader view shows partners' http pages, reviewed in SEC-7 -->", at: key)
        try lines.joined(separator: "\n").write(to: plist, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["audit", app.path, "--policy", Self.fixtures.appendingPathComponent("swift-shop/policy.yaml").path, "--format", "json"])
        #expect(!result.stdout.contains("\"ats-arbitrary-web-content\""), "\(result.stdout)")
        #expect(!result.stdout.contains("\"rule\" : \"suppression-") && !result.stdout.contains("\"rule\": \"suppression-"), "\(result.stdout)")
    }

    /// A finding the audit places on the policy (a bridge no code registers) is suppressed in
    /// the policy, with a YAML comment; lint knows the audit's rule ids and does not object.
    @Test func aFindingOnThePolicyIsSuppressedInThePolicy() throws {
        let folder = try TemporaryFolder.make("audit-policy-comment")
        let policy = folder.appendingPathComponent("policy.yaml")
        var text = try String(contentsOf: Self.fixtures.appendingPathComponent("swift-shop/policy.yaml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "  - name: analytics\n", with: "  # webpolicy:disable-next-line bridge-unregistered -- registered by the Analytics package\n  - name: analytics\n")
        try text.write(to: policy, atomically: true, encoding: .utf8)
        let audit = try Self.audit("swift-shop", ["--policy", policy.path, "--format", "json"])
        #expect(!audit.stdout.contains("\"bridge-unregistered\""), "\(audit.stdout)")
        #expect(!audit.stdout.contains("suppression-unused"), "\(audit.stdout)")
        let lint = try CommandRunner.run(["lint", policy.path, "--format", "json"])
        #expect(!lint.stdout.contains("suppression-"), "\(lint.stdout)")
    }

    /// Lint first: a policy lint rejects stops the audit with lint's findings, in the format
    /// asked for, and exit 2; a policy with warnings only is audited.
    @Test func aPolicyLintRejectsIsNotAuditedAgainst() throws {
        let folder = try TemporaryFolder.make("audit-lint-first")
        let policy = folder.appendingPathComponent("policy.yaml")
        try "webpolicy: 1\nname: bad\nhttp-allowlist:\n  - host: Legacy.Example.com\n    reason: x\n".write(to: policy, atomically: true, encoding: .utf8)
        for format in ["human", "github", "sarif"] {
            let result = try Self.audit("home-server", ["--policy", policy.path, "--format", format])
            #expect(result.status == 2, "\(format): \(result.stdout)")
            #expect(result.stdout.contains("host-uppercase"), "\(format)")
            #expect(!result.stdout.contains("inspectable-in-release"), "\(format): the app was audited")
            #expect(result.stderr.contains("has 1 lint error: the app was not audited against it"))
        }
        try "webpolicy: 1\nname: warned\nhttp-allowlist:\n  - host: legacy.example.com.\n    reason: x\n".write(to: policy, atomically: true, encoding: .utf8)
        let warned = try Self.audit("home-server", ["--policy", policy.path, "--format", "json"])
        #expect(warned.status == 1)
        #expect(warned.stdout.contains("inspectable-in-release"))
    }

    @Test func badInputIsAnInputError() throws {
        let missing = try CommandRunner.run(["audit", "no/such/app"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file or folder: no/such/app"))
        let policy = try Self.audit("swift-shop", ["--policy", "no-such-policy.yaml"])
        #expect(policy.status == 2)
    }
}
