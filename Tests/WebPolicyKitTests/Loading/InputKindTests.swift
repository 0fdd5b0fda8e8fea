import Testing
@testable import WebPolicyKit

/// What a folder walk takes as a policy, by content: a top-level `webpolicy:` key holding the
/// format version. Other tools' files that mention the word must not be linted as policies.
@Suite("input kinds")
struct InputKindTests {
    @Test(arguments: [
        ("webpolicy: 1\nname: shop\n", InputKind.policy),
        ("# Shop's web view\n\nwebpolicy: 1 # format\n", .policy),
        ("\u{FEFF}webpolicy: 1\n", .policy),
        ("name: shop\n'webpolicy': 1\n", .policy),
        // A policy missing its version is still one: lint says what is missing.
        ("webpolicy:\nname: shop\n", .policy),
        ("webpolicy:\n\n# the version goes here\nname: shop\n", .policy),
        ("{\"webpolicy\": 1, \"name\": \"shop\"}", .policy),
        ("{\n  \"name\": \"shop\",\n  \"webpolicy\": 1\n}", .policy),
        ("{webpolicy: 1, name: shop}", .policy),
        ("[{\"trigger\": {\"url-filter\": \"ads\"}, \"action\": {\"type\": \"block\"}}]", .contentBlockerList),
        // A CI job named webpolicy (the GitLab template this project ships).
        ("stages: [test]\nwebpolicy:\n  stage: test\n  script:\n    - webpolicy lint\n", .other),
        ("webpolicy:\n\n  stage: test\n", .other),
        ("webpolicy:\n- lint\n", .other),
        ("webpolicy: {stage: test}\n", .other),
        ("webpolicy: |\n  text\n", .other),
        // The word in a value, not a key: a JSON schema's "$id".
        ("{\n  \"$id\": \"urn:webpolicy:schema:policy:1\",\n  \"title\": \"webpolicy: the format\"\n}", .other),
        ("services:\n  web:\n    image: webpolicy:latest\n", .other),
        ("mywebpolicy: 1\n", .other),
        ("", .other),
    ])
    func kind(of text: String, is expected: InputKind) {
        #expect(InputKind.of(bytes: Array(text.utf8)) == expected, "\(text)")
    }
}

/// Adblock Plus filter lists, recognised to say what they are (FilterListSyntax); YAML with
/// comments must not be taken for one.
@Suite("filter-list syntax")
struct FilterListSyntaxTests {
    @Test(arguments: [
        ("[Adblock Plus 2.0]\n! Title: EasyList\n", true),
        ("&rb=&uuid=$third-party\n-ad-manager/$~stylesheet\n", true),
        ("||tracker.example.net^\n", true),
        ("@@||cdn.example.com^$script\n", true),
        ("##.ad-banner\n", true),
        ("shop.example.com#@#.promo\n", true),
        ("/banner/*$domain=shop.example.com\n", true),
        ("## Trackers\nhosts:\n  - tracker.example.net\n", false),
        ("# ## nothing here\nname: shop\n", false),
        ("name: shop\nhttp-allowlist:\n  - host: legacy.example.com\n", false),
        ("", false),
    ])
    func recognises(text: String, isFilterList: Bool) {
        #expect(FilterListSyntax.looksLikeFilterList(text) == isFilterList, "\(text)")
    }
}
