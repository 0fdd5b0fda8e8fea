/// `webView` in the manifest (version 3), written only when the policy has `webview:`.
extension WebViewSettings {
    enum ManifestMember: ManifestPart {
        static let member = "webView"
        static let since = 3

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            guard let webView = manifest.webView else { return nil }
            // Every on/off setting, defaults included: the app applies what it reads, never a
            // default of its own. A reader of version 3 that predates a row ignores its key and
            // keeps the platform's default, which is what a policy without the key asks.
            var members: [(String, JSONValue)] = WebViewSettingCatalogue.booleans.map { ($0.manifestKey, .bool(webView[keyPath: $0.setting])) }
            if let folder = webView.fileAccess { members.append(("fileAccess", .string(folder))) }
            members.append(("dataDetectors", .array(webView.dataDetectors.map { .string($0.rawValue) })))
            return .object(members + writer.location(webView.location) + writer.location(webView.javaScriptLocation, key: "javaScriptLocation"))
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            guard let node = try reader.optionalObject(root, member) else { return }
            var settings = WebViewSettings()
            for row in WebViewSettingCatalogue.booleans {
                settings[keyPath: row.setting] = try reader.optionalBool(node, row.manifestKey) ?? row.defaultValue
            }
            settings.fileAccess = try reader.optionalString(node, "fileAccess")
            settings.dataDetectors = try (reader.optionalStrings(node, "dataDetectors") ?? []).map { name throws(Manifest.DecodingError) in
                guard let detector = DataDetector(rawValue: name) else {
                    throw reader.fail("\"dataDetectors\" holds \"\(name)\", which is none of \(DataDetector.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))",
                                      node.member("dataDetectors")!)
                }
                return detector
            }
            settings.location = try reader.location(node)
            settings.javaScriptLocation = try reader.location(node, key: "javaScriptLocation")
            manifest.webView = settings
        }
    }
}
