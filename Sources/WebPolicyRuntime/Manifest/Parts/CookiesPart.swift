/// `cookies`: every attribute written out, so the app sets exactly what the policy says.
extension Manifest {
    enum CookiesPart: ManifestPart {
        static let member = "cookies"
        static let since = 1

        static func write(_ manifest: Manifest, _ writer: ManifestWriter) -> JSONValue? {
            .array(manifest.cookies.map { cookie in
                var members: [(String, JSONValue)] = [
                    ("name", .string(cookie.name)), ("value", .string(cookie.value)), ("domain", .string(cookie.domain)),
                    ("hostOnly", .bool(cookie.hostOnly)), ("path", .string(cookie.path)), ("secure", .bool(cookie.secure)),
                    ("httpOnly", .bool(cookie.httpOnly)),
                ]
                if let sameSite = cookie.sameSite { members.append(("sameSite", .string(sameSite.rawValue))) }
                if let expires = cookie.expires { members.append(("expires", .string(expires))) }
                if let maxAge = cookie.maxAge { members.append(("maxAge", .int(maxAge))) }
                members.append(("via", .string(cookie.via.rawValue)))
                return .object(members + writer.location(cookie.location))
            })
        }

        static func read(_ root: JSONNode, into manifest: inout Manifest, _ reader: ManifestReader) throws(Manifest.DecodingError) {
            manifest.cookies = try reader.objects(root, member).map { entry throws(Manifest.DecodingError) in
                var cookie = Cookie(name: try reader.string(entry, "name"), value: try reader.string(entry, "value"), domain: try reader.string(entry, "domain"))
                cookie.hostOnly = try reader.optionalBool(entry, "hostOnly") ?? false
                cookie.path = try reader.optionalString(entry, "path") ?? "/"
                cookie.secure = try reader.optionalBool(entry, "secure") ?? false
                cookie.httpOnly = try reader.optionalBool(entry, "httpOnly") ?? false
                cookie.sameSite = try reader.optionalWord(entry, "sameSite", SameSite.self)
                cookie.expires = try reader.optionalString(entry, "expires")
                cookie.maxAge = try entry.member("maxAge").map { node throws(Manifest.DecodingError) in try reader.int(node, "maxAge") }
                cookie.via = try reader.optionalWord(entry, "via", CookieDelivery.self) ?? .cookieStore
                cookie.location = try reader.location(entry)
                return cookie
            }
        }
    }
}
