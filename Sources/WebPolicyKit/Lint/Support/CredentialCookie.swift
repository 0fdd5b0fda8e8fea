/// Whether a cookie carries a credential, as a security review reads it: its name, or the
/// name of the placeholder its value is filled from (`${CMS_PREVIEW_TOKEN}`), says session,
/// token, auth, secret, key, password or the like. A guess from words, used only to choose the
/// advice (keep `secure`) and to warn where the policy sends one in cleartext on purpose.
enum CredentialCookie {
    static let words = ["token", "session", "sess", "sid", "auth", "jwt", "secret", "key", "pass", "cred", "login", "bearer", "csrf", "xsrf"]

    static func isCredential(name: String, value: String) -> Bool {
        let texts = [name.lowercased()] + placeholders(in: value).map { $0.lowercased() }
        return texts.contains { text in
            // Words of the name: `cms_preview`, `sessionId`, `X-Auth-Key`.
            let parts = text.split(whereSeparator: { !$0.isLetter }).map(String.init)
            return parts.contains { part in words.contains { part == $0 || part.hasPrefix($0) && $0.count >= 4 } }
        }
    }

    /// `${NAME}` placeholders of a value.
    static func placeholders(in value: String) -> [String] {
        var names: [String] = []
        var rest = Substring(value)
        while let start = rest.range(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            names.append(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return names
    }
}
