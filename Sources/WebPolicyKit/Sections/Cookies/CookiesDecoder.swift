import WebPolicyRuntime

/// `cookies:` entries.
extension PolicyDecoder {
    mutating func decodeCookie(_ node: YAMLNode) -> CookieRule? {
        guard let fields = reader.fields(of: node, context: "a cookie", allowed: PolicyKeys.cookie) else { return nil }
        let name = reader.string("name", in: fields, required: true)
        let value = reader.string("value", in: fields, required: true)
        let domain = reader.string("domain", in: fields, required: true)
        let hostOnly = reader.bool("host-only", in: fields)
        let path = reader.string("path", in: fields)
        let secure = reader.bool("secure", in: fields)
        let httpOnly = reader.bool("http-only", in: fields)
        let sameSite = reader.choice("same-site", in: fields, as: SameSite.self)
        let expires = reader.string("expires", in: fields)
        if let expires, !Self.isTimestamp(expires.value) {
            reader.error(.invalidValue, "'expires' must be a date and time such as 2027-01-31T12:00:00Z, but got '\(expires.value)'", at: expires.location.range,
                         hint: "write an RFC 3339 timestamp with a time zone, or use 'max-age' in seconds")
        }
        let maxAge = reader.integer("max-age", in: fields)
        let via = reader.choice("via", in: fields, as: CookieDelivery.self)
        let description = reader.string("description", in: fields)
        guard let name, let value, let domain else { return nil }
        return CookieRule(
            location: reader.location(node), name: name, value: value, domain: domain, hostOnly: hostOnly, path: path,
            secure: secure, httpOnly: httpOnly, sameSite: sameSite, expires: expires, maxAge: maxAge, via: via, description: description
        )
    }

    /// RFC 3339 `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    static func isTimestamp(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count, range.allSatisfy({ (48...57).contains(characters[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(characters[$1] - 48) }
        }
        guard characters.count >= 20, let month = digits(5..<7), let day = digits(8..<10), let hour = digits(11..<13),
              let minute = digits(14..<16), let second = digits(17..<19), digits(0..<4) != nil,
              characters[4] == 45, characters[7] == 45, [84, 116].contains(characters[10]), characters[13] == 58, characters[16] == 58,
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return false }
        var index = 19
        if characters[index] == 46 {
            index += 1
            let start = index
            while index < characters.count, (48...57).contains(characters[index]) { index += 1 }
            if index == start { return false }
        }
        let zone = Array(characters[index...])
        if zone == [90] || zone == [122] { return true }
        guard zone.count == 6, zone[0] == 43 || zone[0] == 45, zone[3] == 58 else { return false }
        return [1, 2, 4, 5].allSatisfy { (48...57).contains(zone[$0]) }
    }
}
