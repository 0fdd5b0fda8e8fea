/// `webview.data-store`: where the view keeps cookies, caches and local storage.
/// `default` is `WKWebsiteDataStore.default()`, shared by every view of the app that does not
/// choose; `non-persistent` is `.nonPersistent()` (iOS 9), kept in memory and gone with the
/// last view that uses it; `profile: NAME` is `WKWebsiteDataStore(forIdentifier:)` (iOS 17), a
/// persistent store of its own, apart from the default one (a signed-in account, a kiosk).
public enum WebsiteDataStoreChoice: Sendable, Equatable {
    case `default`
    case nonPersistent
    /// A store of its own: the name the policy gives it, and the UUID the app opens it by.
    case profile(String)

    /// The policy's and the manifest's word: `default`, `non-persistent`, `profile`.
    public var kind: String {
        switch self {
        case .default: return "default"
        case .nonPersistent: return "non-persistent"
        case .profile: return "profile"
        }
    }

    /// The first iOS with the API.
    public var firstIOS: String {
        switch self {
        case .default, .nonPersistent: return "9.0"
        case .profile: return "17.0"
        }
    }

    /// The identifier `WKWebsiteDataStore(forIdentifier:)` takes for a profile: a name-based
    /// UUID (RFC 9562, version 8) from the SHA-256 of `webpolicy.data-store:` and the name, so
    /// the same name opens the same store in every build, and two names never share one. A
    /// name that is already a UUID is that UUID (a store the app made before it had a policy).
    public var identifier: String? {
        guard case .profile(let name) = self else { return nil }
        if let uuid = Self.canonicalUUID(name) { return uuid }
        var bytes = Array(SHA256.digest(Array("webpolicy.data-store:\(name)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// `8-4-4-4-12` hexadecimal digits, uppercased; nil for anything else.
    static func canonicalUUID(_ text: String) -> String? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return text.uppercased()
    }
}
