import Foundation
import URLFilter

/// Page loads as browsers make them, aimed at a real content-blocker list: each page is a
/// `page` line and 20–60 subresources — first-party files, shared CDNs, third-party widgets,
/// and trackers drawn from the list's own host rules and path rules — so that roughly a sixth
/// of the requests are blocked and the list's per-site rules meet the sites they name.
///
/// Seeded: the same list, seed and size give the same trace on every machine.
public struct RealisticTrace {
    /// What the generator draws from a list.
    public struct Vocabulary {
        /// Hosts of `block` rules anchored at a host (`^[^:]+://+([^/]+\.)?HOST[/:]`), with the
        /// resource types their rule names (empty: any).
        public var blockedHosts: [(host: String, types: [String])] = []
        /// Literal paths of `block` rules that are plain strings (`/pixeltrack\.php`).
        public var blockedPaths: [String] = []
        /// The sites of `if-domain` conditions, where per-site rules apply.
        public var conditionSites: [String] = []

        /// Reads the rules of a WebKit JSON list.
        public init(list: Data) throws {
            guard let rules = try JSONSerialization.jsonObject(with: list) as? [[String: Any]] else {
                throw CocoaError(.fileReadCorruptFile)
            }
            var sites = Set<String>()
            for rule in rules {
                let trigger = rule["trigger"] as? [String: Any] ?? [:]
                let action = (rule["action"] as? [String: Any])?["type"] as? String
                let filter = trigger["url-filter"] as? String ?? ""
                for domain in trigger["if-domain"] as? [String] ?? [] {
                    let site = domain.hasPrefix("*") ? String(domain.dropFirst()) : domain
                    // Sites by name: not IP addresses, where subdomains make no sense.
                    let isAddress = site.split(separator: ".").last?.allSatisfy(\.isNumber) ?? true
                    if site.contains("."), !site.hasSuffix("."), !isAddress { sites.insert(site) }
                }
                guard action == "block", trigger["if-domain"] == nil, trigger["unless-domain"] == nil else { continue }
                let types = (trigger["resource-type"] as? [String] ?? []).filter { Self.subresourceTypes.contains($0) }
                if let host = Self.anchoredHost(filter) {
                    if trigger["resource-type"] == nil || !types.isEmpty { blockedHosts.append((host, types)) }
                } else if let path = Self.plainPath(filter) {
                    blockedPaths.append(path)
                }
            }
            conditionSites = sites.sorted()
        }

        public init(blockedHosts: [(host: String, types: [String])], blockedPaths: [String], conditionSites: [String]) {
            self.blockedHosts = blockedHosts
            self.blockedPaths = blockedPaths
            self.conditionSites = conditionSites
        }

        static let subresourceTypes: Set<String> = ["image", "script", "style-sheet", "font", "media", "fetch", "ping", "other"]
        static let hostPrefix = "^[^:]+://+([^/]+\\.)?"

        /// `^[^:]+://+([^/]+\.)?ads\.example\.com[/:]` (or ending at the host): `ads.example.com`.
        static func anchoredHost(_ filter: String) -> String? {
            guard filter.hasPrefix(hostPrefix) else { return nil }
            var rest = filter.dropFirst(hostPrefix.count)
            for ending in ["[/:]", "/", ""] where rest.hasSuffix(ending) {
                rest = rest.dropLast(ending.count)
                break
            }
            let host = rest.replacingOccurrences(of: "\\.", with: ".")
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }), host.contains(".") else { return nil }
            return host.lowercased()
        }

        /// `/pixeltrack\.php`: `/pixeltrack.php`; nil for anything with regex syntax left.
        static func plainPath(_ filter: String) -> String? {
            let path = filter.replacingOccurrences(of: "\\.", with: ".")
            guard path.hasPrefix("/"), path.count > 3,
                  path.allSatisfy({ $0.isLetter || $0.isNumber || "/._-=&".contains($0) }) else { return nil }
            return path
        }
    }

    public let vocabulary: Vocabulary
    public let seed: UInt64

    public init(vocabulary: Vocabulary, seed: UInt64 = 0x5EED_0F_7EB) {
        self.vocabulary = vocabulary
        self.seed = seed
    }

    /// Shared CDNs and widgets that ordinary pages load; a few of them a list blocks in places.
    static let cdns = ["cdnjs.cloudflare.com", "ajax.googleapis.com", "fonts.googleapis.com", "fonts.gstatic.com", "cdn.jsdelivr.net",
                       "unpkg.com", "code.jquery.com", "i.ytimg.com", "upload.wikimedia.org", "images.unsplash.com", "use.typekit.net",
                       "stackpath.bootstrapcdn.com"]
    static let widgets = ["platform.twitter.com", "www.youtube.com", "player.vimeo.com", "js.stripe.com", "api.mapbox.com",
                          "maps.googleapis.com", "www.gstatic.com", "embed.podcasts.apple.com", "cdn.shopify.com", "static.xx.fbcdn.net",
                          "disqus.com", "cdn.embedly.com"]
    static let words = ["news", "daily", "shop", "recipes", "travel", "sports", "tech", "games", "weather", "finance", "health", "music"]
    static let tlds = ["com", "net", "org", "co.uk", "de", "fr", "io", "com.au"]

    /// Writes the trace to a file; returns how many of its lines are pages.
    @discardableResult
    public func write(requests: Int, toFile path: String) throws -> Int {
        guard let file = fopen(path, "w") else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { fclose(file) }
        var pages = 0
        write(requests: requests) { line in
            if line.hasPrefix("page ") { pages += 1 }
            fputs(line, file)
            fputc(0x0A, file)
        }
        return pages
    }

    /// Writes `requests` request lines (pages included) to `output`, a line at a time.
    public func write(requests: Int, to output: (String) -> Void) {
        var random = SplitMix64(state: seed)
        func below(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }
        func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        func chance(_ percent: Int) -> Bool { below(100) < percent }
        let sites = vocabulary.conditionSites
        var written = 0
        var page = 0
        while written < requests {
            page += 1
            // A third of the pages are on sites the list has per-site rules for.
            let site = !sites.isEmpty && chance(35) ? pick(sites) : "\(pick(Self.words))\(below(5_000)).\(pick(Self.tlds))"
            let pageHost = site.split(separator: ".").count == 2 || chance(50) ? "www.\(site)" : site
            output("page https://\(pageHost)/\(pick(Self.words))/\(page)-\(pick(Self.words)).html\(chance(20) ? "?ref=\(pick(Self.words))" : "")")
            written += 1
            for _ in 0..<(20 + below(41)) where written < requests {
                output(subresource(site: site, pageHost: pageHost, next: &random))
                written += 1
            }
        }
    }

    private func subresource(site: String, pageHost: String, next random: inout SplitMix64) -> String {
        func below(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }
        func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        let roll = below(100)
        let id = below(100_000)
        switch roll {
        case 0..<47:
            // First-party files, from the page's host or a static host of the site.
            let host = below(3) == 0 ? "static.\(site)" : pageHost
            switch below(10) {
            case 0..<4: return "image https://\(host)/images/\(pick(Self.words))-\(id).\(pick(["jpg", "png", "webp", "svg"]))"
            case 4..<7: return "script https://\(host)/assets/js/\(pick(Self.words)).\(id % 97).min.js"
            case 7: return "style-sheet https://\(host)/assets/css/\(pick(Self.words)).css?v=\(id % 13)"
            case 8: return "fetch https://\(host)/api/\(pick(Self.words))?page=\(id % 50)"
            default: return "font https://\(host)/fonts/\(pick(Self.words)).woff2"
            }
        case 47..<62:
            let host = pick(Self.cdns)
            return "\(pick(["script", "style-sheet", "font", "image"])) https://\(host)/\(pick(Self.words))/\(id % 40).\(id % 9)/\(pick(Self.words)).min.js"
        case 62..<77:
            let host = pick(Self.widgets)
            return "\(pick(["script", "child-document", "image", "fetch"])) https://\(host)/\(pick(["embed", "widgets", "v1", "js"]))/\(pick(Self.words))?id=\(id)"
        case 77..<81 where !vocabulary.blockedPaths.isEmpty:
            // A path that a list rule names, on the site itself or a CDN.
            let host = below(2) == 0 ? pageHost : pick(Self.cdns)
            return "\(pick(["script", "image", "fetch"])) https://\(host)\(pick(vocabulary.blockedPaths))?\(pick(Self.words))=\(id)"
        case 81..<94 where !vocabulary.blockedHosts.isEmpty:
            // A tracker or ad server the list blocks by host, sometimes on a subdomain of it.
            let (host, types) = pick(vocabulary.blockedHosts)
            let type = types.isEmpty ? pick(["script", "image", "fetch", "ping", "image", "script"]) : pick(types)
            let isAddress = host.split(separator: ".").last?.allSatisfy(\.isNumber) ?? false
            let name = below(4) == 0 && !isAddress ? "\(pick(["cdn", "s", "t", "px"])).\(host)" : host
            return "\(type) https://\(name)/\(pick(["collect", "pixel.gif", "tag.js", "event", "ads/show"]))?cid=\(id)&u=\(pick(Self.words))"
        default:
            return "\(pick(["ping", "other", "media"])) https://\(pageHost)/\(pick(["beacon", "media/clip.mp4", "manifest.json"]))?t=\(id)"
        }
    }
}
