import WebPolicyRuntime

/// `WKAppBoundDomains` is fixed in Info.plist: a server chosen at run time cannot be in it.
struct RoleAppBoundRule: LintRule {
    static let description = RuleDescription(
        id: "role-app-bound",
        name: "Role in App-Bound Domains",
        category: .runtimeHosts,
        defaultSeverity: .error,
        summary: "`app-bound-domains` names a role, but `WKAppBoundDomains` is read from Info.plist, before any binding.",
        rationale: """
        Apple's App-Bound Domains are the `WKAppBoundDomains` array of the app's Info.plist, read \
        by WebKit when the data store starts (WebKit, `WebsiteDataStoreCocoa.mm`, \
        `initializeAppBoundDomains`): there is no API to add a domain at run time. A server the \
        user chooses is therefore never app-bound — with `limit-navigations` WebKit refuses to \
        show it, and without, it has no message handlers or script injection at all. An app \
        whose server the user chooses cannot use App-Bound Domains for that server; leave the \
        section out and let `navigation` and `bridges` name the role.
        """,
        failing: [
            Example("""
            runtime-hosts:
              server:
                description: The server the user signed in to.
            app-bound-domains:
              domains: [↓"${server}"]
            """),
        ],
        passing: [
            Example("""
            runtime-hosts:
              server:
                description: The server the user signed in to.
            navigation:
              pages:
                - host: "${server}"
            """),
        ]
    )

    func check(_ policy: Policy, _ context: inout RuleContext) {
        for reference in policy.roleReferences where reference.place == "app-bound-domains" {
            context.report("app-bound-domains names ${\(reference.role)}, but WKAppBoundDomains is fixed in Info.plist before the app binds any server: WebKit never treats the bound server as app-bound",
                           at: reference.text.location, hint: "remove it; navigation and bridges can name ${\(reference.role)}, and app-bound-domains does not fit a server the user chooses")
        }
    }
}
