/// `webView` in the manifest (version 3), written only when the policy has `webview:`.
extension WebViewSettings {
    enum ManifestMember: ManifestPart {
        static let member = "webView"
        static let since = 3

        static func version(of manifest: Manifest) -> Int { manifest.webView?.hasSecuritySettings == true ? 5 : since }

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            guard let webView = manifest.webView else { return nil }
            // Every on/off setting, defaults included: the app applies what it reads, never a
            // default of its own. A reader of version 3 that predates a row ignores its key and
            // keeps the platform's default, which is what a policy without the key asks.
            var members: [(String, JSONValue)] = WebViewSettingCatalogue.booleans.map { ($0.manifestKey, .bool(webView[keyPath: $0.setting])) }
            if let folder = webView.fileAccess { members.append(("fileAccess", .string(folder))) }
            members.append(("dataDetectors", .array(webView.dataDetectors.map { .string($0.rawValue) })))
            // Version 5: only what the policy says, so an absent key keeps the platform's choice.
            for row in WebViewSettingCatalogue.choices {
                if let value = webView.choices[row.key] { members.append((row.manifestKey, .string(value))) }
            }
            if let store = webView.dataStore { members.append(("dataStore", dataStore(store))) }
            if let extensions = webView.webExtensions { members.append(("webExtensions", .array(extensions.map(JSONValue.string)))) }
            if !webView.permissions.isEmpty { members.append(("permissions", permissions(webView.permissions, writer))) }
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
            for row in WebViewSettingCatalogue.choices {
                guard let value = try reader.optionalString(node, row.manifestKey) else { continue }
                guard row.choice(named: value) != nil else {
                    throw reader.fail("\"\(row.manifestKey)\" holds \"\(value)\", which is none of \(row.choices.map { "\"\($0.name)\"" }.joined(separator: ", "))",
                                      node.member(row.manifestKey)!)
                }
                settings.choices[row.key] = value
            }
            if let store = try reader.optionalObject(node, "dataStore") { settings.dataStore = try dataStore(store, reader) }
            settings.webExtensions = try reader.optionalStrings(node, "webExtensions")
            if let permissions = try reader.optionalObject(node, "permissions") { settings.permissions = try self.permissions(permissions, reader) }
            settings.location = try reader.location(node)
            settings.javaScriptLocation = try reader.location(node, key: "javaScriptLocation")
            manifest.webView = settings
        }
            /// `{"kind": "profile", "name": "…", "identifier": "UUID"}`: the identifier written
        /// out, so an app opens the store without knowing how a name becomes one.
        private static func dataStore(_ store: WebsiteDataStoreChoice) -> JSONValue {
            var members: [(String, JSONValue)] = [("kind", .string(store.kind))]
            if case .profile(let name) = store, let identifier = store.identifier {
                members += [("name", .string(name)), ("identifier", .string(identifier))]
            }
            return .object(members)
        }

        private static func dataStore(_ node: JSONNode, _ reader: ManifestReader) throws(Manifest.DecodingError) -> WebsiteDataStoreChoice {
            switch try reader.string(node, "kind") {
            case "default": return .default
            case "non-persistent": return .nonPersistent
            case "profile": return .profile(try reader.string(node, "name"))
            case let other: throw reader.fail("\"dataStore\" is default, non-persistent or profile, not \"\(other)\"", node.member("kind")!)
            }
        }

        /// `{"camera": {"rule": "origins", "origins": [host…], "location": …}, …}`.
        private static func permissions(_ rules: PermissionRules, _ writer: ManifestWriter) -> JSONValue {
            .object(PermissionKind.allCases.compactMap { kind in
                guard let entry = rules[kind] else { return nil }
                var members: [(String, JSONValue)] = [("rule", .string(entry.rule.kind))]
                if case .origins(let scopes) = entry.rule { members.append(("origins", .array(scopes.map { .object(writer.host($0)) }))) }
                return (kind.rawValue, .object(members + writer.location(entry.location)))
            })
        }

        private static func permissions(_ node: JSONNode, _ reader: ManifestReader) throws(Manifest.DecodingError) -> PermissionRules {
            var rules = PermissionRules()
            for kind in PermissionKind.allCases {
                guard let entry = try reader.optionalObject(node, kind.rawValue) else { continue }
                let rule: PermissionRule
                switch try reader.string(entry, "rule") {
                case "deny": rule = .deny
                case "ask": rule = .ask
                case "origins": rule = .origins(try reader.objects(entry, "origins").map { origin throws(Manifest.DecodingError) in try reader.hostMatch(origin) })
                case let other: throw reader.fail("a permission's \"rule\" is deny, ask or origins, not \"\(other)\"", entry.member("rule")!)
                }
                rules[kind] = .init(rule, location: try reader.location(entry))
            }
            return rules
        }
    }
}
