/// One section's member of the manifest file, written and read beside the section's runtime
/// model (`Navigation/NavigationRules+Manifest.swift`, `WebView/WebViewSettings+Manifest.swift`,
/// the allowlists, cookies, interception and lists under `Manifest/Parts/`). The file is its
/// header and these members in `Manifest.parts`'s order.
protocol ManifestPart: Sendable {
    /// The member's name in the file.
    static var member: String { get }
    /// The lowest manifest version whose readers honour the member (`Manifest.formatVersion`).
    static var since: Int { get }
    /// The lowest version that holds what this manifest's member says (`since`, unless the
    /// member grew after it: a setting an older reader would ignore raises it).
    static func version(of manifest: Manifest) -> Int
    /// The member's value; nil: the file leaves it out (the section says nothing).
    static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue?
    /// Reads the member from the file's root object, absent or present, into the manifest.
    static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError)
}

extension ManifestPart {
    static func version(of manifest: Manifest) -> Int { since }
}

extension Manifest {
    /// Every member after the header, in the order the file writes them.
    static let parts: [any ManifestPart.Type] = [
        HTTPAllowlistPart.self, SchemeAllowlistPart.self, CookiesPart.self, InterceptionPart.self,
        NavigationRules.ManifestMember.self, AppBoundDomains.ManifestMember.self, Bridge.ManifestMember.self,
        WebViewSettings.ManifestMember.self, RuntimeHost.ManifestMember.self, ContentRuleListsPart.self,
    ]
}

/// What every part writes the same way: locations (relative as compile asks) and host scopes.
struct ManifestWriter {
    let path: (String) -> String

    /// `"location": "file:line:column"`, or nothing when there is no location.
    func location(_ location: SourceLocation?, key: String = "location") -> [(String, JSONValue)] {
        guard let location else { return [] }
        return [(key, .string("\(path(location.path)):\(location.start.line):\(location.start.column)"))]
    }

    /// `"host"` (or `"role"`, for `${role}`) and `"match"`.
    func host(_ match: HostScope) -> [(String, JSONValue)] {
        [match.role.map { ("role", .string($0)) } ?? ("host", .string(match.host)), ("match", .string(match.kind.rawValue))]
    }
}
