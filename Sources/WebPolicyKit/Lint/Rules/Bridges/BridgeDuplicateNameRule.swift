import WebPolicyRuntime

/// WebKit's `WKUserContentController`: adding a second handler under a name raises.
struct BridgeDuplicateNameRule: LintRule {
    static let description = RuleDescription(
        id: "bridge-duplicate-name",
        name: "Two Bridges with One Name",
        category: .bridges,
        defaultSeverity: .error,
        summary: "Two bridges with the same name in the same content world: WebKit raises when the app adds the second.",
        rationale: """
        `WKUserContentController` keeps one handler per name and content world; adding another \
        raises `NSInvalidArgumentException` ("Attempt to add script message handler with name \
        … when one already exists", WebKit's `WKUserContentController.mm`), which ends the app. \
        Two declarations also leave the reader unsure which origins apply. Keep one bridge per \
        name and world, and list all its origins there.
        """,
        failing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: ["www.shop.example.com"]
              - name: ↓nativeBridge
                origins: ["pay.shop.example.com"]
            """),
        ],
        passing: [
            Example("""
            bridges:
              - name: nativeBridge
                origins: ["www.shop.example.com", "pay.shop.example.com"]
              - name: nativeBridge
                origins: ["www.shop.example.com"]
                world: checkout
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        var first: [String: BridgeDeclaration] = [:]
        for bridge in policy.bridges {
            let key = bridge.name.value + "\u{1}" + bridge.worldValue.name
            guard let earlier = first[key] else {
                first[key] = bridge
                continue
            }
            context.report("a second bridge named '\(bridge.name.value)' in the \(bridge.worldValue.name) world: WebKit raises when the app adds it",
                           at: bridge.name.location, hint: "merge its origins into the first one",
                           notes: [Diagnostic.Note("the first '\(bridge.name.value)' is here", at: earlier.name.location)])
        }
    }
}
