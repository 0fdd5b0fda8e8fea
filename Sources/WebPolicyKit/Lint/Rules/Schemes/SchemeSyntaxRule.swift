import WebPolicyRuntime

/// RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
struct SchemeSyntaxRule: LintRule {
    static let description = RuleDescription(
        id: "scheme-syntax",
        name: "Scheme Syntax",
        category: .schemes,
        defaultSeverity: .error,
        summary: "A scheme must follow RFC 3986: a letter, then letters, digits, `+`, `-` or `.` — and no `:` or `//`.",
        rationale: """
        Schemes are matched against the URL's scheme, which never contains `:` or `//`, and \
        `WKWebViewConfiguration.setURLSchemeHandler(_:forURLScheme:)` raises \
        `NSInvalidArgumentException` ("not a valid URL scheme") — crashing the app — for a \
        scheme outside RFC 3986's grammar, which WebKit's `URLParser::maybeCanonicalizeScheme` \
        enforces. Write `mailto`, not `mailto:`; `navidapro`, not `navidapro://`.
        """,
        enforcedBySchema: true,
        failing: [
            Example("""
            scheme-allowlist:
              - scheme: "mailto↓:"
            """),
            Example("""
            scheme-allowlist:
              - scheme: navidapro↓://
                hosts: [healthmagazin]
            """),
            Example("""
            scheme-allowlist:
              - scheme: ↓1password
            """),
            Example("""
            interception:
              - scheme: navida↓_offline
                serve: bundle/offline
            """),
        ],
        passing: [
            Example("""
            scheme-allowlist:
              - scheme: mailto
              - scheme: navidapro
                hosts: [healthmagazin]
              - scheme: com.example.app+deeplink
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for (text, _) in context.facts.schemeFields {
            let scalars = Array(text.value.unicodeScalars)
            guard let first = scalars.first else {
                context.report("the scheme is empty", at: text.location)
                continue
            }
            if let separator = scalars.firstIndex(of: ":") {
                let bare = String(String.UnicodeScalarView(scalars[..<separator]))
                // `navidapro:` and `navidapro://`, nothing after: the scheme is certain.
                let rest = String(String.UnicodeScalarView(scalars[separator...]))
                let certain = (rest == ":" || rest == "://") && !bare.isEmpty
                let fix = certain ? context.fixes.replace(text, with: bare).map { Fix("write '\(bare)'", edits: [$0]) } : nil
                context.report("the scheme '\(text.value)' includes the ':' separator", at: context.location(in: text, offset: separator, length: scalars.count - separator),
                               hint: "write '\(bare)': a scheme is the part before ':'", fix: fix)
                continue
            }
            if !Self.isLetter(first) {
                context.report("the scheme '\(text.value)' must start with a letter", at: context.location(in: text, offset: 0))
                continue
            }
            if let bad = scalars.firstIndex(where: { !Self.isLetter($0) && !("0"..."9").contains($0) && $0 != "+" && $0 != "-" && $0 != "." }) {
                context.report("the scheme '\(text.value)' contains '\(scalars[bad].escaped(asASCII: true))', which schemes cannot hold",
                               at: context.location(in: text, offset: bad),
                               hint: "schemes hold letters, digits, '+', '-' and '.' only (RFC 3986 §3.1)")
            }
        }
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
