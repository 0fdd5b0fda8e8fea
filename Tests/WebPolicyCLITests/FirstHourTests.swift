import Foundation
import Testing

/// What a new user met in their first hour with a shopping app's policy — each a test of the
/// binary as they ran it. The policy: http for one legacy CDN, mailto/tel and a deep link, a
/// tracker blocked, a cookie banner hidden, a session cookie, an offline help bundle.
@Suite("a new user's first hour (the binary)")
struct FirstHourTests {
    static let shop = """
    webpolicy: 1
    name: shop
    target: { ios: "16.0" }
    http-allowlist:
      - host: legacy-cdn.shopco.com
        reason: Product images from the old CDN, which has no TLS.
    scheme-allowlist:
      - scheme: mailto
      - scheme: tel
      - scheme: shopco
        hosts: [product]
    content-rules:
      - id: block-trackers
        action: block
        url-filter: "^https?://([^/]+\\\\.)?tracker\\\\.example\\\\.net/"
      - id: hide-cookie-banner
        action: css-display-none
        selector: ".cookie-banner"
        url-filter: ".*"
        if-domain: ["*shopco.com"]
    cookies:
      - name: shop_session
        value: "${SESSION_TOKEN}"
        domain: shopco.com
        http-only: true
    interception:
      - id: offline-help
        scheme: shopco-offline
        serve: bundle/help

    """

    static var secureShop: String { shop.replacingOccurrences(of: "    http-only: true\n", with: "    http-only: true\n    secure: true\n") }

    // 1. The pre-commit hook runs `webpolicy simulate policies` before any trace exists.
    @Test func aFolderOfPoliciesWithoutTracesPassesWithANote() throws {
        let folder = try CommandRunner.makeFolder(["policies/shop.yaml": Self.secureShop])
        let result = try CommandRunner.run(["simulate", "policies"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: policies holds no .trace or .har files; nothing was replayed"))
        #expect(try CommandRunner.run(["simulate", "policy"], in: folder).status == 2, "a path that does not exist stays an error")
    }

    // 2. The session cookie reaches the plain-http CDN.
    @Test func aCookieThatReachesAnHTTPHostWithoutSecureIsAnErrorThatFixAdds() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.shop])
        let lint = try CommandRunner.run(["lint", "shop.yaml", "--color", "never"], in: folder)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("shop.yaml:22:11: error: cookie 'shop_session' is not secure, and its domain shopco.com covers legacy-cdn.shopco.com, which the http-allowlist loads over plain http: the cookie goes there in cleartext [cookie-cleartext-to-http-host]"), "\(lint.stdout)")
        let fixed = try CommandRunner.run(["lint", "--fix", "shop.yaml"], in: folder)
        #expect(fixed.status == 0, "\(fixed.stdout)")
        #expect(try String(contentsOf: folder.appendingPathComponent("shop.yaml"), encoding: .utf8).contains("  - name: shop_session\n    secure: true\n"))
        let trace = "policy: shop.yaml\npage https://www.shopco.com/ cookies=shop_session\nimage http://legacy-cdn.shopco.com/img/12345.jpg expect=allow cookies=none\n"
        let simulate = try CommandRunner.run(["simulate", "-"], in: folder, stdin: trace)
        #expect(simulate.stdout == "2 passed, 0 failed\n", "\(simulate.stdout)\(simulate.stderr)")
    }

    // 3. A scoped cosmetic rule is how such rules are written; an unscoped block-cookies is not.
    @Test func matchesEverythingSpeaksOnlyOfRulesThatActOnEveryLoad() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.secureShop, "wide.yaml": "webpolicy: 1\nname: wide\ncontent-rules:\n  - action: block-cookies\n    url-filter: \".*\"\n"])
        #expect(try CommandRunner.run(["lint", "--strict", "shop.yaml"], in: folder).stdout == "no problems in 1 file\n")
        let wide = try CommandRunner.run(["lint", "wide.yaml"], in: folder)
        #expect(wide.stdout.contains("[url-filter-matches-everything]"))
    }

    // 4. One reading of a file, by its content.
    @Test func aPolicyWrittenInJSONLintsAsItCompiles() throws {
        let json = #"{"webpolicy": 1, "name": "shop-json", "http-allowlist": [{"host": "legacy-cdn.shopco.com", "reason": "Old CDN."}]}"# + "\n"
        let list = #"[{"trigger": {"url-filter": "^https://t\\.example/"}, "action": {"type": "block"}}]"# + "\n"
        let folder = try CommandRunner.makeFolder(["policy.json": json, "list.txt": list])
        #expect(try CommandRunner.run(["lint", "policy.json"], in: folder).stdout == "no problems in 1 file\n")
        #expect(try CommandRunner.run(["compile", "policy.json", "--output", "out"], in: folder).status == 0)
        // A content-blocker list is a list whatever its name; given to compile, it says what it is.
        #expect(try CommandRunner.run(["lint", "list.txt"], in: folder).stdout == "no problems in 1 file\n")
        let compile = try CommandRunner.run(["compile", "list.txt", "--output", "out2"], in: folder)
        #expect(compile.status == 1)
        #expect(compile.stderr.contains("this file is a JSON array — a WebKit content-blocker list — not a policy"), "\(compile.stderr)")
    }

    // 5. A folder walk takes policies only; an empty one and a policy given as a trace say so.
    @Test func folderWalksTakePoliciesAndSayWhatTheySkip() throws {
        let folder = try CommandRunner.makeFolder([
            "policies/shop.yaml": Self.secureShop, "docker-compose.yml": "services:\n  web:\n    image: shop\n",
            "named.webpolicy.yaml": "webpolicy: 1\nname: named\n", "empty/.keep": "",
            // This project's own GitLab template (a job named webpolicy) and a JSON schema
            // whose "$id" holds the word: neither is a policy.
            "ci/webpolicy.gitlab-ci.yml": "webpolicy:\n  stage: test\n  script:\n    - webpolicy lint .\n",
            "schemas/policy.schema.json": "{\n  \"$id\": \"urn:webpolicy:schema:policy:1\"\n}\n",
        ])
        let lint = try CommandRunner.run(["lint", "."], in: folder)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout == "no problems in 2 files\n")
        let verbose = try CommandRunner.run(["lint", "--verbose", "."], in: folder)
        #expect(verbose.stderr == """
            webpolicy: skipped ci/webpolicy.gitlab-ci.yml: not a policy (no top-level 'webpolicy: 1')
            webpolicy: skipped docker-compose.yml: not a policy (no top-level 'webpolicy: 1')
            webpolicy: skipped schemas/policy.schema.json: not a policy (no top-level 'webpolicy: 1')

            """)
        let empty = try CommandRunner.run(["lint", "empty"], in: folder)
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("webpolicy: error: empty holds no policy"))
        let simulate = try CommandRunner.run(["simulate", "policies/shop.yaml"], in: folder)
        #expect(simulate.status == 2)
        #expect(simulate.stderr == "webpolicy: error: policies/shop.yaml is a policy, not a trace: pass it with --policy (webpolicy simulate --policy policies/shop.yaml TRACE...), or name its traces, whose 'policy:' header points to it\n")
    }

    // 6. Duplicates, each at the second occurrence with a note at the first.
    @Test func duplicatesAreReportedAtTheSecondWithANoteAtTheFirst() throws {
        let policy = """
        webpolicy: 1
        name: twice
        scheme-allowlist:
          - scheme: mailto
          - scheme: mailto
        content-rules:
          - id: trackers
            action: block
            url-filter: tracker
          - id: trackers
            action: block
            url-filter: pixel
        cookies:
          - {name: s, value: a, domain: shopco.com, secure: true}
          - {name: s, value: b, domain: shopco.com, secure: true}

        """
        let folder = try CommandRunner.makeFolder(["p.yaml": policy])
        let lint = try CommandRunner.run(["lint", "p.yaml", "--format", "json"], in: folder)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"]!)@\($0["line"]!)" } == ["scheme-duplicate@5", "content-rule-id-duplicate@10", "cookie-duplicate@15"])
        #expect(findings.map { (($0["notes"] as? [[String: Any]])?.first?["line"] as? Int) ?? 0 } == [4, 7, 14])
    }

    // 7. The one condition that failed, at its line.
    @Test func aFailedCookieExpectationNamesTheConditionThatFailed() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.secureShop])
        let trace = "policy: shop.yaml\npage https://www.shopco.com/\nimage http://legacy-cdn.shopco.com/a.png cookies=shop_session\n"
        let result = try CommandRunner.run(["simulate", "-"], in: folder, stdin: trace)
        #expect(result.status == 1)
        #expect(result.stdout.contains("  expected cookies shop_session, got none; 'shop_session' (shop.yaml:22) is not sent: it is secure, and this load is http\n"), "\(result.stdout)")
    }

    /// A link handed to Safari by `navigation.otherwise` carries no cookie, and the failed
    /// expectation says why instead of an empty reason.
    @Test func aCookieExpectedOnAHandedOffLinkNamesTheHandOff() throws {
        let policy = """
            webpolicy: 1
            name: shop
            navigation:
              pages:
                - host: "*.shop.example.com"
              otherwise: open-externally
            cookies:
              - name: session
                value: "${SESSION}"
                domain: example.org
                secure: true
            """
        let folder = try CommandRunner.makeFolder(["p.yaml": policy + "\n"])
        let trace = "policy: p.yaml\npage https://www.shop.example.com/\npage https://news.example.org/story cookies=session\n"
        let result = try CommandRunner.run(["simulate", "-"], in: folder, stdin: trace)
        #expect(result.status == 1)
        #expect(result.stdout.contains("expected cookies session, got none; 'session' (p.yaml:8) is not sent: the view never loads it: the URL is handed to the system, which opens it outside the app\n"), "\(result.stdout)")
        let explained = try CommandRunner.run(["explain", "--policy", "p.yaml", "https://news.example.org/story", "--top", "https://www.shop.example.com/"], in: folder)
        #expect(explained.stdout.contains("1-4. content rules, scheme gate, interception, cookies: not reached\n"), "\(explained.stdout)")
    }

    // 8. What the view hands to the system does not become its page.
    @Test func aHandedOffPageLeavesTheViewsPageAsItWas() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.secureShop])
        let trace = "policy: shop.yaml\npage https://www.shopco.com/cart\npage mailto:help@shopco.com expect=allow\npopup https://x.example.org/\nimage https://cdn.shopco.com/a.png\n"
        let result = try CommandRunner.run(["simulate", "-", "--format", "json"], in: folder, stdin: trace)
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["url"] != nil }
        #expect(lines.map { $0["top"] as? String } == ["https://www.shopco.com/cart", "mailto:help@shopco.com", "https://www.shopco.com/cart", "https://www.shopco.com/cart"])
        // The cookie banner rule of the shop's pages still holds after the hand-off.
        #expect(lines.last?["hiddenSelectors"] as? [String] == [".cookie-banner"])
    }

    // 9. The verdict column never runs into the type.
    @Test func theVerdictColumnIsWideEnoughForIntercept() throws {
        let folder = try CommandRunner.makeFolder(["shop.yaml": Self.secureShop])
        let result = try CommandRunner.run(["simulate", "-", "--verbose"], in: folder, stdin: "policy: shop.yaml\nstyle-sheet shopco-offline://help/style.css\n")
        #expect(result.stdout.hasPrefix("<stdin>:2:      intercept style-sheet shopco-offline://help/style.css\n"), "\(result.stdout)")
    }
    /// EasyList's own format is the likeliest wrong file: every command that reads it says it is
    /// an Adblock Plus filter list and how to convert it, instead of a YAML error about anchors
    /// (lint, compile) or a bare JSON syntax error (import, --content-rules).
    @Test func anAdblockPlusFilterListIsNamedWithHowToConvertIt() throws {
        let filters = "&rb=&uuid=$third-party\n||tracker.example.net^$script\nshop.example.com##.ad-banner\n"
        let folder = try CommandRunner.makeFolder(["easylist.txt": filters, "requests.trace": "page https://shop.example.com/\n"])
        let convert = "convert it first (AdGuard's SafariConverterLib or Brave's adblock-rust write the JSON)"
        for arguments in [["lint", "easylist.txt"], ["import", "easylist.txt"], ["simulate", "--content-rules", "easylist.txt", "requests.trace"]] {
            let result = try CommandRunner.run(arguments, in: folder)
            #expect(result.status != 0, "\(arguments)")
            let output = result.stdout + result.stderr
            #expect(output.contains("this looks like an Adblock Plus filter list (EasyList syntax), not WebKit content-blocker JSON: \(convert)"), "\(arguments): \(output)")
        }
        let compile = try CommandRunner.run(["compile", "easylist.txt", "-o", "out"], in: folder)
        #expect(compile.status == 1)
        // Compile's diagnostics go to standard error.
        #expect(compile.stderr.contains("easylist.txt:1:1: error: this file is an Adblock Plus filter list (EasyList syntax), not a policy [wrong-type]"), "\(compile.stdout)\(compile.stderr)")
        #expect(!compile.stderr.contains("yaml-syntax"))
    }
}
