import Foundation
import Testing
@testable import WebPolicyLSP

/// Hover and completion that read the policy itself: the entries that name a host, the first
/// iOS of a content-rule construct, the roles, served schemes and worlds a policy declares.
@Suite("webpolicy lsp: hover and completion from the policy's own entries")
struct PolicyAwareHoverAndCompletionTests {
    static let dashboard = """
    webpolicy: 1
    name: p
    target: { ios: "26.0" }
    runtime-hosts:
      server:
        description: The dashboard server the user signed in to.
    http-allowlist:
      - host: shop.example.com
        include-subdomains: true
        reason: legacy images
    navigation:
      pages:
        - host: "*.shop.example.com"
        - host: "${server}"
    bridges:
      - name: cart
        origins: [checkout.shop.example.com, other.example.net]
        world: billing
      - name: pay
        origins: [checkout.shop.example.com]
        world: billing
    interception:
      - scheme: navida-offline
        serve: bundle
    content-rules:
      - action: block
        url-filter: ads
        resource-type: [script, fetch]
        if-frame-url: [x]
      - action: redirect
        url-filter: x
        redirect: { url: "https://a.example/" }

    """

    static func hover(_ text: String, line: Int, character: Int) throws -> String {
        let (editor, path) = try Editor.opening(text, as: "p.yaml", folder: "lsp-policy-hover")
        let hover = NavigationTests.request(editor, "textDocument/hover", path, position: (line, character)) as? [String: Any]
        return (hover?["contents"] as? [String: Any])?["value"] as? String ?? ""
    }

    @Test func aHostsHoverNamesTheEntriesThatNameItsHosts() throws {
        // Over `checkout.shop.example.com`, inside a flow list.
        let checkout = try Self.hover(Self.dashboard, line: 16, character: 20)
        #expect(checkout.contains("**host** `checkout.shop.example.com` (bridge 'cart')"), "\(checkout)")
        #expect(checkout.contains("the http-allowlist, line 8: `shop.example.com` — shop.example.com and its subdomains"), "\(checkout)")
        #expect(checkout.contains("navigation.pages, line 13: `*.shop.example.com`"), "\(checkout)")
        #expect(!checkout.contains("other.example.net"))
        #expect(checkout.contains("bridge 'pay', line 20"), "\(checkout)")
        let role = try Self.hover(Self.dashboard, line: 13, character: 15)
        #expect(role.contains("the origin the app binds the role 'server' to at run time"), "\(role)")
        #expect(role.contains("No other entry of the policy names these hosts"), "\(role)")
    }

    @Test func aConstructsHoverSaysWhichIOSFirstHasIt() throws {
        let key = try Self.hover(Self.dashboard, line: 28, character: 6)
        #expect(key.contains("since iOS 18.0") && key.contains("ignores it"), "if-frame-url: \(key)")
        let fetch = try Self.hover(Self.dashboard, line: 27, character: 28)
        #expect(fetch.contains("**resource type** `fetch`") && fetch.contains("since iOS 15.0") && fetch.contains("refuses the whole list"), "\(fetch)")
        let script = try Self.hover(Self.dashboard, line: 27, character: 21)
        #expect(script.contains("**resource type** `script`") && script.contains("every WebKit with content blockers"), "\(script)")
        let block = try Self.hover(Self.dashboard, line: 25, character: 14)
        #expect(block.contains("**action** `block`: stops the load.") && block.contains("every WebKit"), "\(block)")
        let redirect = try Self.hover(Self.dashboard, line: 29, character: 15)
        #expect(redirect.contains("sends the load to another URL") && redirect.contains("since iOS 15.4"), "\(redirect)")
        let filter = try Self.hover(Self.dashboard, line: 26, character: 18)
        #expect(filter.contains("the url-filter grammar has not grown"), "\(filter)")
    }

    /// A regex WebKit refuses: the hover says why as lint does (`missing )`), with WebKit's own
    /// words beside it, away from the finding's place as well as on it.
    @Test func aRefusedRegexsHoverSaysWhyAsLintDoes() throws {
        let text = "webpolicy: 1\nname: refused\ncontent-rules:\n  - action: block\n    url-filter: \"ads(\\\\.js\"\n"
        let hover = try Self.hover(text, line: 4, character: 18)
        #expect(hover.contains("WebKit refuses it") && hover.contains("missing ) (WebKit's parser says") && hover.contains("counted from 1"), "\(hover)")
    }

    /// The labels and what each inserts, where `|` is (the dashboard's text, one line replaced).
    static func completion(replacing line: Int, with marked: String) throws -> [(label: String, insert: String)] {
        var lines = dashboard.components(separatedBy: "\n")
        lines[line] = marked.replacingOccurrences(of: "|", with: "")
        // The policy loaded once, then the line typed (the typed text need not load).
        let (editor, path) = try Editor.opening(dashboard, as: "p.yaml", folder: "lsp-own-names")
        editor.change(path, text: lines.joined(separator: "\n"), version: 2)
        editor.pending.removeFirst()()
        let column = marked.unicodeScalars.distance(from: marked.unicodeScalars.startIndex, to: marked.unicodeScalars.firstIndex(of: "|")!)
        editor.send(["id": 71, "method": "textDocument/completion", "params": [
            "textDocument": ["uri": URL(fileURLWithPath: path).absoluteString], "position": ["line": line, "character": column],
        ]])
        let items = editor.received.last { $0["id"] as? Int == 71 }?["result"] as? [[String: Any]] ?? []
        return items.compactMap { item in
            let edit = (item["textEdit"] as? [String: Any])?["newText"] as? String
            return (item["label"] as? String).map { ($0, edit ?? item["insertText"] as? String ?? $0) }
        }
    }

    /// The line after the item labelled `label` is accepted as an editor that honours its edit
    /// does (`|` the cursor; ASCII lines, where UTF-16 and scalar columns agree).
    static func accepted(replacing line: Int, with marked: String, label: String) throws -> String? {
        var lines = dashboard.components(separatedBy: "\n")
        let text = marked.replacingOccurrences(of: "|", with: "")
        lines[line] = text
        let (editor, path) = try Editor.opening(dashboard, as: "p.yaml", folder: "lsp-accept")
        editor.change(path, text: lines.joined(separator: "\n"), version: 2)
        editor.pending.removeFirst()()
        let column = marked.distance(from: marked.startIndex, to: marked.firstIndex(of: "|")!)
        editor.send(["id": 72, "method": "textDocument/completion", "params": [
            "textDocument": ["uri": URL(fileURLWithPath: path).absoluteString], "position": ["line": line, "character": column],
        ]])
        let items = editor.received.last { $0["id"] as? Int == 72 }?["result"] as? [[String: Any]] ?? []
        guard let item = items.first(where: { $0["label"] as? String == label }), let edit = item["textEdit"] as? [String: Any],
              let range = edit["range"] as? [String: Any], let newText = edit["newText"] as? String,
              let start = (range["start"] as? [String: Any])?["character"] as? Int, let end = (range["end"] as? [String: Any])?["character"] as? Int else { return nil }
        // Neovim 0.7 inserts from the start of the word: the edit must start there too.
        let word = text.prefix(column).reversed().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }.count
        #expect(start == column - word, "the edit starts where the typed word does")
        let scalars = Array(text)
        return String(scalars[..<start]) + newText + String(scalars[end...])
    }

    @Test func theRolesComeWhereAHostPatternGoes() throws {
        let role = "\"${server}\""
        #expect(try Self.accepted(replacing: 12, with: "    - host: |", label: role) == "    - host: \"${server}\"")
        #expect(try Self.accepted(replacing: 12, with: "    - host: \"${se|", label: role) == "    - host: \"${server}\"")
        #expect(try Self.accepted(replacing: 12, with: "    - host: \"$|", label: role) == "    - host: \"${server}\"")
        #expect(try Self.accepted(replacing: 12, with: "    - host: \"${se|}\"", label: role) == "    - host: \"${server}\"", "the editor's closing pair taken in")
        #expect(try Self.accepted(replacing: 12, with: "    - host: '${|", label: "'${server}'") == "    - host: '${server}'")
        #expect(try Self.accepted(replacing: 16, with: "    origins: |", label: "[\"${server}\"]") == "    origins: [\"${server}\"]", "a list in brackets")
        #expect(try Self.accepted(replacing: 16, with: "    origins: [checkout.shop.example.com, |", label: role) == "    origins: [checkout.shop.example.com, \"${server}\"")
        let notAHost = try Self.completion(replacing: 9, with: "    reason: |")
        #expect(!notAHost.contains { $0.label.contains("${") }, "\(notAHost)")
    }

    @Test func aRolesOwnKeysAndAHalfTypedWorld() throws {
        let keys = try CompletionTests.labels("webpolicy: 1\nruntime-hosts:\n  server:\n    ")
        #expect(keys.contains("schemes") && keys.contains("http") && keys.contains("description"), "\(keys)")
        let world = try Self.completion(replacing: 17, with: "    world: bill|")
        #expect(!world.map(\.label).contains("bill"), "the word typed is not offered back: \(world)")
        let blockList = try CompletionTests.labels("webpolicy: 1\ncontent-rules:\n  - action: block\n    resource-type:\n      - |")
        #expect(blockList.contains("script") && blockList.contains("fetch"), "\(blockList)")
        #expect(try CompletionTests.labels("webp").contains("webpolicy"), "a new file that is becoming a policy")
    }

    @Test func aFindingsHoverSaysWhatIsUnderItToo() throws {
        let old = Self.dashboard.replacingOccurrences(of: "ios: \"26.0\"", with: "ios: \"16.0\"")
        let key = try Self.hover(old, line: 28, character: 6)
        #expect(key.contains("**webkit-feature-unavailable**") && key.contains("since iOS 18.0"), "\(key)")
    }

    @Test func servedSchemesAndUsedWorldsComeWhereTheyGo() throws {
        let scheme = try Self.completion(replacing: 13, with: "    - scheme: |")
        #expect(scheme.map(\.label) == ["navida-offline"], "\(scheme)")
        let world = try Self.completion(replacing: 17, with: "    world: |")
        #expect(world.map(\.label) == ["page", "client", "billing"], "the other bridge's world: \(world)")
    }
}
