import WebPolicyRuntime

extension Sections {
    /// `webview:` — the web view's configuration, applied by the app's configurator before
    /// the view exists (`WebViewSettings`); JavaScript's setting is read by the message gate.
    enum WebView: PolicySection {
        static let key = "webview"
        static let schemaDefinitions = [(definition: "webView", keys: PolicyKeys.webView)]
        static let entryKinds = ["setting"]
        static let ruleCategory = RuleCategory.webView
        static let pipelineSteps: [PipelineStep] = []

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
        /// alone, so coverage has nothing of them to count (JavaScript's refusals of messages
        /// name the bridge they were posted to).
        static func coverageItems(of policy: Policy) -> [Coverage.Item] { [] }

        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {}

        static func census(_ document: PolicyDocument) -> Int { census(document.webView) }
        static func census(_ policy: Policy) -> Int { census(policy.webView) }
        /// The manifest writes every setting, the platform's defaults included.
        static func census(_ manifest: Manifest) -> Int { manifest.webView == nil ? 0 : WebViewSettingCatalogue.booleans.count + 2 }

        private static func census(_ section: WebViewSection?) -> Int {
            guard let section else { return 0 }
            return section.booleans.count + (section.fileAccess == nil ? 0 : 1) + (section.dataDetectors == nil ? 0 : 1)
        }
    }
}
