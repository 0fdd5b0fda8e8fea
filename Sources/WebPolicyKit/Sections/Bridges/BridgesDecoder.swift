import WebPolicyRuntime

/// `bridges:`, read as the other sections are: every structural problem
/// reported at its place, the rest kept.
extension PolicyDecoder {
    mutating func decodeBridge(_ node: YAMLNode) -> BridgeDeclaration? {
        guard let fields = reader.fields(of: node, context: "a bridge", allowed: PolicyKeys.bridge) else { return nil }
        let origins = reader.stringList("origins", in: fields)
        if !fields.has("origins") {
            reader.requireKey("origins", in: fields, hint: "list the hosts whose pages may call the handler, such as \"*.shop.example.com\"")
        }
        let schemes = reader.stringList("schemes", in: fields)
        let schemeNames = schemes?.value.map { $0.value.lowercased() } ?? ["https"]
        for origin in origins?.value ?? [] { checkOriginPattern(origin, schemes: schemeNames) }
        for scheme in schemes?.value ?? [] where !Self.isSchemeName(scheme.value) {
            reader.error(.invalidValue, "'\(scheme.value)' is not a URL scheme", at: scheme.location.range,
                         hint: "a scheme is letters, digits, '+', '-' and '.', starting with a letter: https, http, or an app's own scheme")
        }
        let frames = reader.choice("frames", in: fields, as: BridgeFrames.self)
        let world = reader.string("world", in: fields)
        if let world, world.value.isEmpty {
            reader.error(.invalidValue, "'world' names a content world: page, client, or a name of the app's", at: world.location.range)
        }
        let reply = reader.bool("reply", in: fields)
        let description = reader.string("description", in: fields)
        guard let name = reader.string("name", in: fields, required: true) else { return nil }
        if name.value.isEmpty {
            reader.error(.invalidValue, "a bridge's name is the handler's: window.webkit.messageHandlers.<name>, and it is empty", at: name.location.range)
        }
        return BridgeDeclaration(location: reader.location(node), name: name, origins: origins, schemes: schemes, frames: frames, world: world,
                                 reply: reply, description: description)
    }

    /// `host`, `*.host` or `*`: a wildcard only as a whole label at the start, no scheme,
    /// port or path.
    private mutating func checkOriginPattern(_ origin: LocatedString, schemes: [String]) {
        let text = origin.value
        if text.contains("://") {
            reader.error(.invalidValue, "an origin names a host, not a URL: '\(text)'", at: origin.location.range,
                         hint: "write the host alone; the bridge's 'schemes' says which schemes (https unless it says)",
                         fix: hostOfOrigin(origin, schemes: schemes))
        } else if text.contains("/") || text.contains(":") {
            reader.error(.invalidValue, "an origin names a host, without port or path: '\(text)'", at: origin.location.range)
        } else if text != "*", text.dropFirst(text.hasPrefix("*.") ? 2 : 0).contains("*") || text.isEmpty {
            reader.error(.invalidValue, "'\(text)' is not a host pattern", at: origin.location.range,
                         hint: "write host, *.host for its subdomains, or * for any host")
        }
    }

    /// `https://cms.example.com/` → `cms.example.com`: certain when the URL is a scheme the
    /// bridge admits and a host, nothing more (a port, a path, a query would be dropped).
    private func hostOfOrigin(_ origin: LocatedString, schemes: [String]) -> Fix? {
        guard case .success(let url) = CanonicalURL.parse(origin.value), let host = url.host, !host.isEmpty,
              schemes.contains(url.scheme), url.port == nil, url.path == "/" || url.path.isEmpty, url.query == nil, url.fragment == nil,
              !origin.value.contains("@"),
              let edit = FixBuilder(files: [reader.file.path: reader.file]).replace(origin, with: host) else { return nil }
        return Fix("write the host '\(host)'", edits: [edit])
    }

    static func isSchemeName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }
}
