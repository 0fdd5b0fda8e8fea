/// The manifest file: written by `webpolicy compile`, read by the runtime. Defaults are written
/// out, so a reader needs no knowledge of the policy format; locations are `file:line:column`
/// with the file relative to the policy's folder.
extension Manifest {
    /// The manifest as JSON text. `path` turns a location's file into the form written (compile
    /// makes it relative to the policy's folder, so the same policy gives the same bytes from
    /// any working folder).
    public func serialized(path: (String) -> String = { $0 }) -> String {
        func location(_ location: SourceLocation?) -> [(String, JSONValue)] {
            guard let location else { return [] }
            return [("location", .string("\(path(location.path)):\(location.start.line):\(location.start.column)"))]
        }
        func host(_ match: HostMatch) -> [(String, JSONValue)] {
            [("host", .string(match.host)), ("match", .string(match.kind.rawValue))]
        }
        // Version 2 adds `navigation` and `appBoundDomains`, version 3 `bridges` and `webView`:
        // an older reader would ignore them (let the view go anywhere, let every frame call
        // every handler), so a manifest says the lowest version that holds what it has, and
        // one without them stays readable by every runtime.
        let written = !bridges.isEmpty || webView != nil ? 3 : navigation != nil || appBoundDomains != nil ? 2 : 1
        var top: [(String, JSONValue)] = [("webpolicyManifest", .int(written))]
        var policyInfo: [(String, JSONValue)] = [("name", .string(policyName))]
        if let policyDescription { policyInfo.append(("description", .string(policyDescription))) }
        top.append(("policy", .object(policyInfo)))
        top.append(("target", .object([("ios", .string(targetIOS)), ("distribution", .string(distribution))])))
        top.append(("httpAllowlist", .array(httpAllowlist.map { entry in
            var members = host(entry.host)
            if let reason = entry.reason { members.append(("reason", .string(reason))) }
            return .object(members + location(entry.location))
        })))
        top.append(("schemeAllowlist", .array(schemeAllowlist.map { entry in
            var members: [(String, JSONValue)] = [("scheme", .string(entry.scheme))]
            if let hosts = entry.hosts { members.append(("hosts", .array(hosts.map(JSONValue.string)))) }
            if let paths = entry.paths { members.append(("paths", .array(paths.map(JSONValue.string)))) }
            return .object(members + location(entry.location))
        })))
        top.append(("cookies", .array(cookies.map { cookie in
            var members: [(String, JSONValue)] = [
                ("name", .string(cookie.name)), ("value", .string(cookie.value)), ("domain", .string(cookie.domain)),
                ("hostOnly", .bool(cookie.hostOnly)), ("path", .string(cookie.path)), ("secure", .bool(cookie.secure)),
                ("httpOnly", .bool(cookie.httpOnly)),
            ]
            if let sameSite = cookie.sameSite { members.append(("sameSite", .string(sameSite.rawValue))) }
            if let expires = cookie.expires { members.append(("expires", .string(expires))) }
            if let maxAge = cookie.maxAge { members.append(("maxAge", .int(maxAge))) }
            members.append(("via", .string(cookie.via.rawValue)))
            return .object(members + location(cookie.location))
        })))
        top.append(("interception", .array(interception.map { rule in
            var members: [(String, JSONValue)] = []
            if let id = rule.id { members.append(("id", .string(id))) }
            members.append(("scheme", .string(rule.scheme)))
            if let hosts = rule.hosts { members.append(("hosts", .array(hosts.map { .object(host($0)) }))) }
            if let paths = rule.paths { members.append(("paths", .array(paths.map(JSONValue.string)))) }
            if let methods = rule.methods { members.append(("methods", .array(methods.map(JSONValue.string)))) }
            if let serve = rule.serve { members.append(("serve", .string(serve))) }
            if let handler = rule.handler { members.append(("handler", .string(handler))) }
            return .object(members + location(rule.location))
        })))
        if let navigation {
            func entries(_ list: [NavigationRules.Entry]) -> JSONValue {
                .array(list.map { entry in
                    var members = host(entry.host)
                    members.append(("schemes", .array(entry.schemes.map(JSONValue.string))))
                    if let paths = entry.paths { members.append(("paths", .array(paths.map(JSONValue.string)))) }
                    return .object(members + location(entry.location))
                })
            }
            func at(_ key: String, _ place: SourceLocation?) -> [(String, JSONValue)] {
                location(place).map { (key, $0.1) }
            }
            top.append(("navigation", .object([
                ("pages", entries(navigation.pages)), ("frames", entries(navigation.frames)),
                ("otherwise", .string(navigation.otherwise.rawValue)), ("newWindows", .string(navigation.newWindows.rawValue)),
            ] + location(navigation.location) + at("otherwiseLocation", navigation.otherwiseLocation) + at("newWindowsLocation", navigation.newWindowsLocation))))
        }
        if let appBoundDomains {
            top.append(("appBoundDomains", .object([
                ("entries", .array(appBoundDomains.entries.map(JSONValue.string))), ("limitNavigations", .bool(appBoundDomains.limitNavigations)),
            ] + location(appBoundDomains.location))))
        }
        if !bridges.isEmpty {
            top.append(("bridges", .array(bridges.map { bridge in
                var members: [(String, JSONValue)] = [("name", .string(bridge.name))]
                members.append(("origins", .array(bridge.origins.map { origin in
                    var entry: [(String, JSONValue)] = origin.host.map(host) ?? [("host", .string("*")), ("match", .string("any"))]
                    entry.append(("schemes", .array(origin.schemes.map(JSONValue.string))))
                    return .object(entry + location(origin.location))
                })))
                members += [("frames", .string(bridge.frames.rawValue)), ("world", .string(bridge.world.name)), ("reply", .bool(bridge.reply))]
                return .object(members + location(bridge.location) + location(bridge.framesLocation).map { ("framesLocation", $0.1) }
                               + location(bridge.originsLocation).map { ("originsLocation", $0.1) })
            })))
        }
        if let webView {
            // Every on/off setting, defaults included: the app applies what it reads, never a
            // default of its own. A reader of version 3 that predates a row ignores its key and
            // keeps the platform's default, which is what a policy without the key asks.
            var members: [(String, JSONValue)] = WebViewSettingCatalogue.booleans.map { ($0.manifestKey, .bool(webView[keyPath: $0.setting])) }
            if let folder = webView.fileAccess { members.append(("fileAccess", .string(folder))) }
            members.append(("dataDetectors", .array(webView.dataDetectors.map { .string($0.rawValue) })))
            top.append(("webView", .object(members + location(webView.location) + location(webView.javaScriptLocation).map { ("javaScriptLocation", $0.1) })))
        }
        top.append(("contentRuleLists", .array(contentRuleLists.map { list in
            var members: [(String, JSONValue)] = [("identifier", .string(list.identifier)), ("file", .string(list.file)), ("ruleCount", .int(list.ruleCount))]
            if let sha256 = list.sha256 { members.append(("sha256", .string(sha256))) }
            if let image = list.image { members.append(("image", .string(image))) }
            members.append(("sources", .array(list.sources.map { source in
                var members: [(String, JSONValue)] = [("firstRule", .int(source.firstRule)), ("ruleCount", .int(source.ruleCount))]
                if let id = source.id { members.append(("id", .string(id))) }
                return .object(members + location(source.location))
            })))
            return .object(members)
        })))
        return JSONValue.object(top).serialized()
    }

    /// A problem with a manifest's text, at its line and column.
    public struct DecodingError: Error, Sendable, Equatable {
        public var message: String
        public var position: SourcePosition
        /// The file's major version, when it is one this runtime does not read.
        public var unsupportedVersion: Int?
    }

    /// Reads a manifest file. Members it does not know are ignored (a newer minor addition);
    /// a newer major version is refused before anything else is read. Locations keep the file
    /// as written (relative to the policy's folder). `readingSources: false` passes over each
    /// list's `sources` unread (they come back empty): what an app needs when every list has a
    /// usable engine image, which holds them.
    public static func decode(_ text: String, readingSources: Bool = true) -> Result<Manifest, DecodingError> {
        decode(bytes: Array(text.utf8), readingSources: readingSources)
    }

    /// The same from the file's bytes.
    public static func decode(bytes: [UInt8], readingSources: Bool = true) -> Result<Manifest, DecodingError> {
        let root: JSONNode
        switch JSONDocument.parse(bytes: bytes, skipping: readingSources ? [] : ["sources"]) {
        case .failure(let error): return .failure(DecodingError(message: error.message, position: error.position))
        case .success(let node): root = node
        }
        do {
            return .success(try ManifestReader(root: root).manifest())
        } catch {
            return .failure(error)
        }
    }
}

/// Walks a parsed manifest, refusing what is missing or of the wrong kind at its position.
private struct ManifestReader {
    let root: JSONNode

    func manifest() throws(Manifest.DecodingError) -> Manifest {
        guard root.members != nil else { throw fail("the manifest is \(root.kindName), not an object", root) }
        guard let versionNode = root.member("webpolicyManifest") else {
            throw fail("this is not a webpolicy manifest: it has no \"webpolicyManifest\" version", root)
        }
        let version = try int(versionNode, "webpolicyManifest")
        if version > Manifest.formatVersion {
            var error = fail("the manifest is version \(version), written by a newer webpolicy; this runtime reads version \(Manifest.formatVersion) — update WebPolicyRuntime, or compile with the webpolicy that matches it", versionNode)
            error.unsupportedVersion = version
            throw error
        }
        guard version >= 1 else { throw fail("\"webpolicyManifest\" must be 1 or more, not \(version)", versionNode) }

        let policy = try object(root, "policy")
        let target = try object(root, "target")
        var manifest = Manifest(policyName: try string(policy, "name"), policyDescription: try optionalString(policy, "description"),
                                targetIOS: try string(target, "ios"), distribution: try string(target, "distribution"))
        manifest.version = version
        manifest.httpAllowlist = try objects(root, "httpAllowlist").map { entry throws(Manifest.DecodingError) in
            Manifest.HTTPAllowlistEntry(host: try hostMatch(entry), reason: try optionalString(entry, "reason"), location: try location(entry))
        }
        manifest.schemeAllowlist = try objects(root, "schemeAllowlist").map { entry throws(Manifest.DecodingError) in
            Manifest.SchemeAllowlistEntry(scheme: try string(entry, "scheme"), hosts: try optionalStrings(entry, "hosts"),
                                          paths: try optionalStrings(entry, "paths"), location: try location(entry))
        }
        manifest.cookies = try objects(root, "cookies").map { entry throws(Manifest.DecodingError) in
            var cookie = Manifest.Cookie(name: try string(entry, "name"), value: try string(entry, "value"), domain: try string(entry, "domain"))
            cookie.hostOnly = try optionalBool(entry, "hostOnly") ?? false
            cookie.path = try optionalString(entry, "path") ?? "/"
            cookie.secure = try optionalBool(entry, "secure") ?? false
            cookie.httpOnly = try optionalBool(entry, "httpOnly") ?? false
            cookie.sameSite = try optionalWord(entry, "sameSite", SameSite.self)
            cookie.expires = try optionalString(entry, "expires")
            cookie.maxAge = try entry.member("maxAge").map { node throws(Manifest.DecodingError) in try int(node, "maxAge") }
            cookie.via = try optionalWord(entry, "via", CookieDelivery.self) ?? .cookieStore
            cookie.location = try location(entry)
            return cookie
        }
        manifest.interception = try objects(root, "interception").map { entry throws(Manifest.DecodingError) in
            var rule = Manifest.Interception(id: try optionalString(entry, "id"), scheme: try string(entry, "scheme"))
            if let hosts = entry.member("hosts") {
                guard let items = hosts.array else { throw fail("\"hosts\" must be an array", hosts) }
                rule.hosts = try items.map { item throws(Manifest.DecodingError) in try hostMatch(item) }
            }
            rule.paths = try optionalStrings(entry, "paths")
            rule.methods = try optionalStrings(entry, "methods")?.map { $0.uppercased() }
            rule.serve = try optionalString(entry, "serve")
            rule.handler = try optionalString(entry, "handler")
            rule.location = try location(entry)
            return rule
        }
        manifest.contentRuleLists = try objects(root, "contentRuleLists").map { entry throws(Manifest.DecodingError) in
            let sources = try objects(entry, "sources").map { source throws(Manifest.DecodingError) in
                Manifest.RuleSource(firstRule: try int(required(source, "firstRule"), "firstRule"), ruleCount: try int(required(source, "ruleCount"), "ruleCount"),
                                    id: try optionalString(source, "id"), location: try location(source))
            }
            var list = Manifest.ContentRuleList(identifier: try string(entry, "identifier"), file: try string(entry, "file"),
                                                ruleCount: try int(required(entry, "ruleCount"), "ruleCount"),
                                                sha256: try optionalString(entry, "sha256"), sources: sources)
            list.image = try optionalString(entry, "image")
            return list
        }
        manifest.navigation = try root.member("navigation").map { node throws(Manifest.DecodingError) in try navigation(node) }
        manifest.appBoundDomains = try root.member("appBoundDomains").map { node throws(Manifest.DecodingError) in
            guard node.members != nil else { throw fail("\"appBoundDomains\" must be an object, not \(node.kindName)", node) }
            return AppBoundDomains(entries: try optionalStrings(node, "entries") ?? [], limitNavigations: try optionalBool(node, "limitNavigations") ?? false,
                                   location: try location(node))
        }
        manifest.bridges = try objects(root, "bridges").map { node throws(Manifest.DecodingError) in try bridge(node) }
        manifest.webView = try root.member("webView").map { node throws(Manifest.DecodingError) in try webView(node) }
        return manifest
    }

    private func bridge(_ node: JSONNode) throws(Manifest.DecodingError) -> Bridge {
        let origins = try objects(node, "origins").map { entry throws(Manifest.DecodingError) in
            let any = try optionalString(entry, "match") == "any"
            return Bridge.Origin(host: any ? nil : try hostMatch(entry), schemes: try optionalStrings(entry, "schemes") ?? ["https"], location: try location(entry))
        }
        return Bridge(name: try string(node, "name"), origins: origins, frames: try optionalWord(node, "frames", BridgeFrames.self) ?? .main,
                      world: ContentWorldName(try optionalString(node, "world") ?? "page"), reply: try optionalBool(node, "reply") ?? false,
                      location: try location(node), framesLocation: try location(node, key: "framesLocation"),
                      originsLocation: try location(node, key: "originsLocation"))
    }

    private func webView(_ node: JSONNode) throws(Manifest.DecodingError) -> WebViewSettings {
        guard node.members != nil else { throw fail("\"webView\" must be an object, not \(node.kindName)", node) }
        var settings = WebViewSettings()
        for row in WebViewSettingCatalogue.booleans {
            settings[keyPath: row.setting] = try optionalBool(node, row.manifestKey) ?? row.defaultValue
        }
        settings.fileAccess = try optionalString(node, "fileAccess")
        settings.dataDetectors = try (optionalStrings(node, "dataDetectors") ?? []).map { name throws(Manifest.DecodingError) in
            guard let detector = DataDetector(rawValue: name) else {
                throw fail("\"dataDetectors\" holds \"\(name)\", which is none of \(DataDetector.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))", node.member("dataDetectors")!)
            }
            return detector
        }
        settings.location = try location(node)
        settings.javaScriptLocation = try location(node, key: "javaScriptLocation")
        return settings
    }

    private func navigation(_ node: JSONNode) throws(Manifest.DecodingError) -> NavigationRules {
        guard node.members != nil else { throw fail("\"navigation\" must be an object, not \(node.kindName)", node) }
        func entries(_ key: String) throws(Manifest.DecodingError) -> [NavigationRules.Entry] {
            try objects(node, key).map { entry throws(Manifest.DecodingError) in
                NavigationRules.Entry(host: try hostMatch(entry), schemes: try optionalStrings(entry, "schemes") ?? ["https"],
                                      paths: try optionalStrings(entry, "paths"), location: try location(entry))
            }
        }
        return NavigationRules(pages: try entries("pages"), frames: try entries("frames"),
                               otherwise: try optionalWord(node, "otherwise", NavigationOtherwise.self) ?? .openExternally,
                               newWindows: try optionalWord(node, "newWindows", NewWindowPolicy.self) ?? .sameView,
                               location: try location(node), otherwiseLocation: try location(node, key: "otherwiseLocation"),
                               newWindowsLocation: try location(node, key: "newWindowsLocation"))
    }

    private func fail(_ message: String, _ node: JSONNode) -> Manifest.DecodingError {
        Manifest.DecodingError(message: message, position: node.range.start)
    }

    private func required(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> JSONNode {
        guard let member = node.member(key) else { throw fail("missing \"\(key)\"", node) }
        return member
    }

    private func object(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> JSONNode {
        let member = try required(node, key)
        guard member.members != nil else { throw fail("\"\(key)\" must be an object, not \(member.kindName)", member) }
        return member
    }

    /// An array of objects; absent is empty.
    private func objects(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> [JSONNode] {
        guard let member = node.member(key) else { return [] }
        guard let items = member.array else { throw fail("\"\(key)\" must be an array, not \(member.kindName)", member) }
        for item in items where item.members == nil { throw fail("each of \"\(key)\" must be an object, not \(item.kindName)", item) }
        return items
    }

    private func string(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> String {
        let member = try required(node, key)
        guard let value = member.string else { throw fail("\"\(key)\" must be a string, not \(member.kindName)", member) }
        return value
    }

    private func optionalString(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> String? {
        guard node.member(key) != nil else { return nil }
        return try string(node, key)
    }

    private func optionalStrings(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> [String]? {
        guard let member = node.member(key) else { return nil }
        guard let items = member.array else { throw fail("\"\(key)\" must be an array of strings", member) }
        return try items.map { item throws(Manifest.DecodingError) in
            guard let value = item.string else { throw fail("each of \"\(key)\" must be a string, not \(item.kindName)", item) }
            return value
        }
    }

    private func optionalBool(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> Bool? {
        guard let member = node.member(key) else { return nil }
        guard let value = member.bool else { throw fail("\"\(key)\" must be true or false, not \(member.kindName)", member) }
        return value
    }

    private func optionalWord<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ key: String, _: T.Type) throws(Manifest.DecodingError) -> T? where T.RawValue == String {
        guard let text = try optionalString(node, key) else { return nil }
        guard let value = T(rawValue: text) else {
            throw fail("\"\(key)\" must be one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(text)\"", node.member(key)!)
        }
        return value
    }

    private func int(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> Int {
        guard let number = node.number, number.rounded() == number, abs(number) < 9e15 else {
            throw fail("\"\(key)\" must be a whole number, not \(node.kindName)", node)
        }
        return Int(number)
    }

    private func hostMatch(_ node: JSONNode) throws(Manifest.DecodingError) -> Manifest.HostMatch {
        guard node.members != nil else { throw fail("a host must be an object with \"host\" and \"match\"", node) }
        return Manifest.HostMatch(host: try string(node, "host"), kind: try optionalWord(node, "match", Manifest.HostMatch.Kind.self) ?? .exact)
    }

    /// `file:line:column`; the file may itself hold colons.
    private func location(_ node: JSONNode, key: String = "location") throws(Manifest.DecodingError) -> SourceLocation? {
        guard let text = try optionalString(node, key) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]), line > 0, column > 0 else {
            throw fail("\"\(key)\" must be FILE:LINE:COLUMN, not \"\(text)\"", node.member(key)!)
        }
        let path = parts.dropLast(2).joined(separator: ":")
        return SourceLocation(path: path, range: SourceRange(at: SourcePosition(line: line, column: column)))
    }
}
