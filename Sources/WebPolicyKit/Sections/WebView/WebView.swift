import WebPolicyRuntime

extension Sections {
    /// `webview:` — the web view's configuration, applied by the app's configurator before
    /// the view exists (`WebViewSettings`); JavaScript's setting is read by the message gate.
    enum WebView: PolicySection {
        static let key = "webview"
        static let schemaDefinitions = [(definition: "webView", keys: PolicyKeys.webView)]
        static let entryKinds = ["setting", "webview permission"]
        static let ruleCategory = RuleCategory.webView
        static let pipelineSteps: [PipelineStep] = [.permission]

        static func decode(_ fields: Fields, into document: inout PolicyDocument, with decoder: inout PolicyDecoder) {
            document.webView = fields.value(key).flatMap { decoder.decodeWebView($0) }
        }

        /// Each key as the last file that sets it says.
        static func merge(_ documents: [PolicyDocument], into policy: inout Policy) {
            let sections = documents.compactMap(\.webView)
            guard var merged = sections.last else { return }
            func last<T>(_ key: KeyPath<WebViewSection, T?>) -> T? { sections.last { $0[keyPath: key] != nil }?[keyPath: key] }
            for row in WebViewSettingCatalogue.booleans {
                merged[row] = sections.last { $0[row] != nil }?[row]
            }
            merged.fileAccess = last(\.fileAccess)
            merged.dataDetectors = last(\.dataDetectors)
            merged.mergeSecurity(sections)
            policy.webView = merged
        }

        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.webView = policy.webView?.settings
        }

        /// Every key a setting: `webview.inspectable: 'false' → 'true'`.
        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.settings(node, in: file, section: key, keys: PolicyKeys.webView)
        }

        /// Settings configure the view before any request; no request is decided by one
        /// alone, so coverage counts none of them (JavaScript's refusals of messages name the
        /// bridge they were posted to) — except each capability of `permissions`, which
        /// decides the requests for it.
        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            (policy.webView?.permissions?.value ?? []).map { Coverage.Item(kind: .permission, name: $0.kind.rawValue, location: $0.location) }
        }

        /// The capability entry that decided a permission request.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            guard result.entry.permission != nil else { return }
            marks.mark(at: result.decidedBy?.location, .permission)
        }

        static func census(_ document: PolicyDocument) -> Int { census(document.webView) }
        static func census(_ policy: Policy) -> Int { census(policy.webView) }
        /// The manifest writes every setting, the platform's defaults included.
        static func census(_ manifest: Manifest) -> Int {
            guard let settings = manifest.webView else { return 0 }
            return WebViewSettingCatalogue.booleans.count + 2 + settings.choices.count + (settings.dataStore == nil ? 0 : 1)
                + (settings.webExtensions == nil ? 0 : 1) + settings.permissions.entries.count
        }

        private static func census(_ section: WebViewSection?) -> Int {
            guard let section else { return 0 }
            return section.booleans.count + (section.fileAccess == nil ? 0 : 1) + (section.dataDetectors == nil ? 0 : 1) + section.securityCensus
        }
    }
}
