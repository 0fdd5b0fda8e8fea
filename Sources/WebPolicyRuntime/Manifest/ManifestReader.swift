/// Walks a parsed manifest, refusing what is missing or of the wrong kind at its position.
/// The header is read here; each member by its `ManifestPart`.
struct ManifestReader {
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
        for part in Manifest.parts {
            try part.read(root, into: &manifest, self)
        }
        return manifest
    }

    func fail(_ message: String, _ node: JSONNode) -> Manifest.DecodingError {
        Manifest.DecodingError(message: message, position: node.range.start)
    }

    func required(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> JSONNode {
        guard let member = node.member(key) else { throw fail("missing \"\(key)\"", node) }
        return member
    }

    func object(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> JSONNode {
        let member = try required(node, key)
        guard member.members != nil else { throw fail("\"\(key)\" must be an object, not \(member.kindName)", member) }
        return member
    }

    /// An object member that may be absent.
    func optionalObject(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> JSONNode? {
        guard node.member(key) != nil else { return nil }
        return try object(node, key)
    }

    /// An array of objects; absent is empty.
    func objects(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> [JSONNode] {
        guard let member = node.member(key) else { return [] }
        guard let items = member.array else { throw fail("\"\(key)\" must be an array, not \(member.kindName)", member) }
        for item in items where item.members == nil { throw fail("each of \"\(key)\" must be an object, not \(item.kindName)", item) }
        return items
    }

    func string(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> String {
        let member = try required(node, key)
        guard let value = member.string else { throw fail("\"\(key)\" must be a string, not \(member.kindName)", member) }
        return value
    }

    func optionalString(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> String? {
        guard node.member(key) != nil else { return nil }
        return try string(node, key)
    }

    func optionalStrings(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> [String]? {
        guard let member = node.member(key) else { return nil }
        guard let items = member.array else { throw fail("\"\(key)\" must be an array of strings", member) }
        return try items.map { item throws(Manifest.DecodingError) in
            guard let value = item.string else { throw fail("each of \"\(key)\" must be a string, not \(item.kindName)", item) }
            return value
        }
    }

    func optionalBool(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> Bool? {
        guard let member = node.member(key) else { return nil }
        guard let value = member.bool else { throw fail("\"\(key)\" must be true or false, not \(member.kindName)", member) }
        return value
    }

    func optionalWord<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ key: String, _: T.Type) throws(Manifest.DecodingError) -> T? where T.RawValue == String {
        guard let text = try optionalString(node, key) else { return nil }
        guard let value = T(rawValue: text) else {
            throw fail("\"\(key)\" must be one of \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(text)\"", node.member(key)!)
        }
        return value
    }

    func int(_ node: JSONNode, _ key: String) throws(Manifest.DecodingError) -> Int {
        guard let number = node.number, number.rounded() == number, abs(number) < 9e15 else {
            throw fail("\"\(key)\" must be a whole number, not \(node.kindName)", node)
        }
        return Int(number)
    }

    func hostMatch(_ node: JSONNode) throws(Manifest.DecodingError) -> HostScope {
        guard node.members != nil else { throw fail("a host must be an object with \"host\" and \"match\"", node) }
        let kind = try optionalWord(node, "match", HostScope.Kind.self) ?? .exact
        if let role = try optionalString(node, "role") { return HostScope(role: role, kind: kind) }
        return HostScope(host: try string(node, "host"), kind: kind)
    }

    /// `file:line:column`; the file may itself hold colons.
    func location(_ node: JSONNode, key: String = "location") throws(Manifest.DecodingError) -> SourceLocation? {
        guard let text = try optionalString(node, key) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]), line > 0, column > 0 else {
            throw fail("\"\(key)\" must be FILE:LINE:COLUMN, not \"\(text)\"", node.member(key)!)
        }
        let path = parts.dropLast(2).joined(separator: ":")
        return SourceLocation(path: path, range: SourceRange(at: SourcePosition(line: line, column: column)))
    }
}
