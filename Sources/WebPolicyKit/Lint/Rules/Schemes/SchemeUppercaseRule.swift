import WebPolicyRuntime

struct SchemeUppercaseRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-uppercase",
        name: "Scheme Uppercase",
        category: .schemes,
        defaultSeverity: .warning,
        summary: "Schemes should be written in lowercase, their canonical form.",
        rationale: """
        RFC 3986 §3.1: "the canonical form is lowercase and documents that specify schemes must \
        do so with lowercase letters". WebKit lowercases schemes (`maybeCanonicalizeScheme`) and \
        compares them case-insensitively, while Apple documents scheme handler names as case \
        sensitive — a mixed-case scheme invites a mismatch between the policy, the app's code \
        and `LSApplicationQueriesSchemes`.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            scheme-allowlist:
              - scheme: ↓MailTo
            """),
        ],
        passing: [
            Example("""
            scheme-allowlist:
              - scheme: mailto
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for (text, _) in context.facts.schemeFields {
            guard let upper = text.value.unicodeScalars.firstIndex(where: { ("A"..."Z").contains($0) }) else { continue }
            let offset = text.value.unicodeScalars.distance(from: text.value.unicodeScalars.startIndex, to: upper)
            let fix = context.fixes.replace(text, with: text.value.lowercased()).map { Fix("write '\(text.value.lowercased())'", edits: [$0]) }
            context.report("the scheme '\(text.value)' has uppercase letters", at: context.location(in: text, offset: offset),
                           hint: "write '\(text.value.lowercased())'", fix: fix)
        }
    }
}
