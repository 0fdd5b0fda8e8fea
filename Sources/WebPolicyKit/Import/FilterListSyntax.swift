/// Adblock Plus filter syntax — what EasyList, EasyPrivacy, uBlock Origin's and AdGuard's lists
/// are written in — recognised in a file that should have been WebKit content-blocker JSON. It
/// is the format most blocklists ship in, so it is the likeliest wrong file a new user hands
/// to `import`, `lint` or `--content-rules`; the JSON error alone does not say what to do.
enum FilterListSyntax {
    /// Who writes WebKit's JSON from filters: webpolicy does not (docs/decisions.md).
    static let converters = "AdGuard's SafariConverterLib or Brave's adblock-rust"

    /// For a file read as a list.
    static let hint = "this looks like an Adblock Plus filter list (EasyList syntax), not WebKit content-blocker JSON: "
        + "convert it first (\(converters) write the JSON), then use the JSON"

    /// Whether the first lines read as filters: a `[Adblock Plus …]` header, `!` comments,
    /// `||host^` and `@@` exceptions, `##` element hiding, or `$` options such as
    /// `$third-party`. Only asked of a file that is not JSON.
    static func looksLikeFilterList(_ text: String) -> Bool {
        var looked = 0
        // Fifty lines fit in the first 16 KB of any list; a whole 17 MB file is not split.
        for line in text.utf8.prefix(16 * 1024).split(separator: UInt8(ascii: "\n")).lazy.map({ Substring(decoding: $0, as: UTF8.self) }) {
            let line = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            guard !line.isEmpty else { continue }
            if line.hasPrefix("[Adblock") || line.hasPrefix("! ") || line.hasPrefix("||") || line.hasPrefix("@@")
                || hidesElements(line) || line.contains("$third-party") || line.contains("$domain=") {
                return true
            }
            looked += 1
            if looked == 50 { return false }
        }
        return false
    }

    /// `##.ad-banner`, `shop.example##div[id]`, `#@#`: a selector right after the marks — not a
    /// YAML or shell comment (`## Section`), which has a space there.
    private static func hidesElements(_ line: Substring) -> Bool {
        for marker in ["##", "#@#"] {
            var rest = line[...]
            while let range = rest.range(of: marker) {
                let after = rest[range.upperBound...].first
                if let after, after != " ", after != "#", after != "\t" { return true }
                rest = rest[range.upperBound...]
            }
        }
        return false
    }
}
