import WebPolicyRuntime

extension Sections {
    /// `navigation:` — where the view may go: pages, frames, what a link elsewhere does and
    /// what new windows do. The runtime's navigation step; the app's navigation and UI
    /// delegates (`NavigationDecider`, `WindowDecider`).
    enum Navigation: PolicySection {
        static let key = "navigation"
        static let schemaDefinitions = [
            (definition: "navigation", keys: PolicyKeys.navigation),
            (definition: "navigationEntry", keys: PolicyKeys.navigationEntry),
        ]
        static let entryKinds = [Coverage.Kind.navigationPage.rawValue, Coverage.Kind.navigationFrame.rawValue, "setting", Coverage.Kind.navigationSetting.rawValue]
        static let ruleCategory = RuleCategory.navigation
        static let pipelineSteps: [PipelineStep] = [.navigation]

        static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
            document.navigation = fields.value(key).flatMap { decoder.decodeNavigation($0) }
        }

        /// Pages and frames of every file, in order; `otherwise` and `new-windows` as the last
        /// file that sets them says (the including file after those it includes).
        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
            let sections = documents.compactMap(\.navigation)
            guard var merged = sections.last else { return }
            merged.pages = sections.flatMap(\.pages)
            merged.schemePages = sections.flatMap(\.schemePages)
            merged.frames = sections.flatMap(\.frames)
            merged.otherwise = sections.last { $0.otherwise != nil }?.otherwise
            merged.newWindows = sections.last { $0.newWindows != nil }?.newWindows
            policy.navigation = merged
        }

        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            guard let section = policy.navigation else { return }
            func entry(_ entry: NavigationEntry) -> NavigationRules.Entry {
                NavigationRules.Entry(host: entry.scope, schemes: policy.schemeNames(of: entry.scope, written: entry.schemes),
                                      paths: entry.paths?.value.map(\.value), location: entry.location)
            }
            manifest.navigation = NavigationRules(
                pages: section.pages.map(entry), frames: section.frames.map(entry),
                pageSchemes: section.schemePages.map { NavigationRules.SchemePage(scheme: $0.schemeName, location: $0.location) },
                otherwise: section.otherwise?.value ?? .openExternally, newWindows: section.newWindows?.value ?? .sameView,
                location: section.location, otherwiseLocation: section.otherwise?.location, newWindowsLocation: section.newWindows?.location)
        }

        /// Pages and frames by host or, for the app's own pages, by scheme (the nth of a host
        /// with the nth), `otherwise` and `new-windows` as settings.
        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            var entries: [SectionEntry] = []
            for (member, kind) in [("pages", entryKinds[0]), ("frames", entryKinds[1])] {
                guard let list = SectionEntry.member(member, of: node) else { continue }
                entries += SectionEntry.list(list, in: file, kind: kind) { entry in
                    let name = entry.value("host") ?? entry.value("scheme").map { "scheme: " + $0 }
                    return (name, "'\(name ?? "")'")
                }
            }
            return entries + SectionEntry.settings(node, in: file, section: key, keys: ["otherwise", "new-windows"])
        }

        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            guard let navigation = policy.navigation else { return [] }
            var items = navigation.pages.map { Coverage.Item(kind: .navigationPage, name: $0.host.value, location: $0.location) }
                + navigation.schemePages.map { Coverage.Item(kind: .navigationPage, name: "scheme: \($0.schemeName)", location: $0.location) }
                + navigation.frames.map { Coverage.Item(kind: .navigationFrame, name: $0.host.value, location: $0.location) }
            if let otherwise = navigation.otherwise {
                items.append(Coverage.Item(kind: .navigationSetting, name: "otherwise: \(otherwise.value.rawValue)", location: otherwise.location))
            }
            if let newWindows = navigation.newWindows {
                items.append(Coverage.Item(kind: .navigationSetting, name: "new-windows: \(newWindows.value.rawValue)", location: newWindows.location))
            }
            return items
        }

        /// The page or frame entry that admitted a document; `otherwise` or `new-windows` when
        /// one of them decided a navigation; `new-windows` when a window opened in the same view
        /// (which it exercises without deciding).
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            marks.mark(at: result.decision.admittedBy, .navigationPage, .navigationFrame)
            if result.decision.record.decidedAt == .navigation, result.decision.admittedBy == nil {
                marks.mark(at: result.decision.decidedBy?.location, .navigationSetting)
            }
            if result.decision.replacesPage, result.entry.resourceType == .popup,
               let item = marks.first(.navigationSetting, where: { $0.name.hasPrefix("new-windows:") }) {
                marks.mark(item: item)
            }
        }

        static func census(_ document: PolicyDocument) -> Int { census(document.navigation) }
        static func census(_ policy: Policy) -> Int { census(policy.navigation) }
        static func census(_ manifest: Manifest) -> Int {
            guard let rules = manifest.navigation else { return 0 }
            return rules.pages.count + rules.pageSchemes.count + rules.frames.count + (rules.otherwiseLocation == nil ? 0 : 1) + (rules.newWindowsLocation == nil ? 0 : 1)
        }

        private static func census(_ section: NavigationSection?) -> Int {
            guard let section else { return 0 }
            return section.pages.count + section.schemePages.count + section.frames.count + (section.otherwise == nil ? 0 : 1) + (section.newWindows == nil ? 0 : 1)
        }
    }
}
