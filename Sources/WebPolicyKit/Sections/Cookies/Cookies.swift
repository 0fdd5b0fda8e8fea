import WebPolicyRuntime

extension Sections {
    /// `cookies:` — the cookies the app injects so the web app sees the native login: the
    /// runtime's cookies step, and the app's cookie installer.
    enum Cookies: ListSection {
        static let key = "cookies"
        static let schemaDefinitions = [(definition: "cookie", keys: PolicyKeys.cookie)]
        static let entryKinds = [Coverage.Kind.cookie.rawValue]
        static let ruleCategory = RuleCategory.cookies
        static let pipelineSteps: [PipelineStep] = [.cookies]

        static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { \.cookies }
        static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { \.cookies }

        static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> CookieRule? { decoder.decodeCookie(node) }


        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.cookies = policy.cookies.map(lowered)
        }

        static func lowered(_ cookie: CookieRule) -> Manifest.Cookie {
            var result = Manifest.Cookie(name: cookie.name.value, value: cookie.value.value, domain: cookie.domain.value)
            result.hostOnly = cookie.hostOnly?.value ?? false
            result.path = cookie.path?.value ?? "/"
            result.secure = cookie.secure?.value ?? false
            result.httpOnly = cookie.httpOnly?.value ?? false
            result.sameSite = cookie.sameSite?.value
            result.expires = cookie.expires?.value
            result.maxAge = cookie.maxAge?.value
            result.via = cookie.via?.value ?? .cookieStore
            result.location = cookie.location
            return result
        }

        /// A cookie is its name for its domain: the same name for another domain is another cookie.
        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in
                ([entry.value("name"), entry.value("domain")].compactMap { $0 }.joined(separator: " for "),
                 "'\(entry.value("name") ?? "")' for \(entry.value("domain") ?? "")")
            }
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.cookies.map { Coverage.Item(kind: .cookie, name: $0.name.value, location: $0.location) }
        }

        /// Each cookie the request sent.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            for name in result.cookies { marks.mark(named: name, .cookie) }
        }

        static func census(_ manifest: Manifest) -> Int { manifest.cookies.count }
    }
}
