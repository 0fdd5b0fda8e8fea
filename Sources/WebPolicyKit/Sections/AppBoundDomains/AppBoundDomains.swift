import WebPolicyRuntime

extension Sections {
    /// `app-bound-domains:` — Apple's App-Bound Domains: `WKAppBoundDomains` in the ATS
    /// fragment's Info.plist keys, `limitsNavigationsToAppBoundDomains` on the configuration,
    /// WebKit's own refusal in the runtime's navigation step, the handlers it hides from pages.
    enum AppBoundDomains: PolicySection {
        static let key = "app-bound-domains"
        static let schemaDefinitions = [(definition: "appBoundDomains", keys: PolicyKeys.appBoundDomains)]
        static let entryKinds = [Coverage.Kind.appBoundDomain.rawValue, "setting"]
        static let ruleCategory = RuleCategory.navigation
        static let pipelineSteps: [PipelineStep] = [.appBound]

        static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
            document.appBoundDomains = fields.value(key).flatMap { decoder.decodeAppBoundDomains($0) }
        }

        /// Domains of every file, in order; `limit-navigations` as the last file that sets it says.
        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
            let sections = documents.compactMap(\.appBoundDomains)
            guard var merged = sections.last else { return }
            let domains = sections.flatMap { $0.domains?.value ?? [] }
            if let last = sections.last(where: { $0.domains != nil })?.domains { merged.domains = Located(domains, at: last.location) }
            merged.limitNavigations = sections.last { $0.limitNavigations != nil }?.limitNavigations
            policy.appBoundDomains = merged
        }

        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.appBoundDomains = policy.appBoundDomains.map { section in
                // Reasons name what refuses a navigation: `limit-navigations`, where it is written.
                WebPolicyRuntime.AppBoundDomains(entries: section.domains?.value.map(\.value) ?? [], limitNavigations: section.limitNavigations?.value ?? false,
                                                 location: section.limitNavigations?.location ?? section.location)
            }
        }

        /// Each domain by its name; `limit-navigations` a setting.
        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            var entries: [SectionEntry] = []
            for item in SectionEntry.member("domains", of: node)?.sequence ?? [] {
                var fields: [(String, String)] = []
                SectionEntry.flatten(item, into: &fields, prefix: "domain")
                let domain = item.scalar?.value
                entries.append(SectionEntry(kind: entryKinds[0], key: domain, name: "'\(domain ?? "")'", location: file.location(item.range), fields: fields))
            }
            return entries + SectionEntry.settings(node, in: file, section: key, keys: ["limit-navigations"])
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            (policy.appBoundDomains?.domains?.value ?? []).map { Coverage.Item(kind: .appBoundDomain, name: $0.value, location: $0.location) }
        }

        /// The domain WebKit's check bound a main-frame navigation by.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            if case .boundBy(let entry) = result.decision.appBound { marks.markAppBound(entry) }
        }

        static func census(_ document: PolicyDocument) -> Int { census(document.appBoundDomains) }
        static func census(_ policy: Policy) -> Int { census(policy.appBoundDomains) }
        static func census(_ manifest: Manifest) -> Int {
            guard let section = manifest.appBoundDomains else { return 0 }
            return section.entries.count + (section.limitNavigations ? 1 : 0)
        }

        private static func census(_ section: AppBoundDomainsSection?) -> Int {
            guard let section else { return 0 }
            return (section.domains?.value.count ?? 0) + (section.limitNavigations?.value == true ? 1 : 0)
        }
    }
}
