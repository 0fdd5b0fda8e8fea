import FuzzCommon
import Foundation
import URLFilter
import WebPolicyRuntime

// Engine images (`EngineImageFile`), what the runtime maps at launch and the command line
// reads from its cache. One reference list, built once, with every kind of table an image
// holds: host-anchored filters decided by the next byte and by their tail, literal-only
// filters, DFAs and an NFA, if-domain and if-top-url conditions, universal css rules, an
// ignore rule. The first byte of an input picks how it is used:
//
// - 0: the rest is an image, as is: refused with a reason, or — accepted — it decides the
//   probe loads exactly as the engine built from the reference list does (only the very
//   bytes of its image pass the checksum);
// - 1: the rest overwrites bytes of the reference image at an offset it names, and the
//   checksum is made right again, so that the structure checks alone stand between the
//   damage and the matcher: refused with a reason, or accepted and deciding every probe
//   without reading out of bounds or looping (AddressSanitizer, the run's time limit);
// - 2: the reference image cut or extended to a length the input names: refused.

let listJSON = #"""
[
  {"trigger": {"url-filter": "^[^:]+://+([^/]+\\.)?ads\\.example\\.net[/:]"}, "action": {"type": "block"}},
  {"trigger": {"url-filter": "^[^:]+://+([^/]+\\.)?cdn\\.example\\.org/track/.*\\.js"}, "action": {"type": "block"}},
  {"trigger": {"url-filter": "/adserver/banner\\."}, "action": {"type": "block"}},
  {"trigger": {"url-filter": "^https?://[^/]+/[ab]?x[0-9]+y", "url-filter-is-case-sensitive": true}, "action": {"type": "block"}},
  {"trigger": {"url-filter": "(((a*b*)*c)*d)*e.*f.*g.*h.*i.*j.*k.*l.*m.*n.*o.*p.*q.*r.*s.*t.*u.*v.*w.*x.*y.*z"}, "action": {"type": "block-cookies"}},
  {"trigger": {"url-filter": ".*", "if-domain": ["*news.example", "shop.example"]}, "action": {"type": "css-display-none", "selector": ".promo"}},
  {"trigger": {"url-filter": ".*", "resource-type": ["image"]}, "action": {"type": "css-display-none", "selector": ".banner"}},
  {"trigger": {"url-filter": "tracker", "if-top-url": ["^https://partner\\.example/"]}, "action": {"type": "block"}},
  {"trigger": {"url-filter": "^http://", "load-type": ["third-party"]}, "action": {"type": "make-https"}},
  {"trigger": {"url-filter": "good", "unless-domain": ["*safe.example"]}, "action": {"type": "ignore-previous-rules"}},
  {"trigger": {"url-filter": "ping", "if-frame-url": ["frame"]}, "action": {"type": "notify", "notification": "seen"}}
]
"""#

func referenceEngine() -> ContentRuleEngine {
    // Built as an app builds an engine from a list: through the runtime's public entry.
    var manifest = Manifest(policyName: "fuzz", targetIOS: "16.0", distribution: "app-store")
    manifest.contentRuleLists = [Manifest.ContentRuleList(identifier: "fuzz-0", file: "reference.json", ruleCount: 11, sha256: SHA256.hex(Array(listJSON.utf8)),
                                                          sources: [Manifest.RuleSource(firstRule: 0, ruleCount: 11, id: "reference",
                                                                                        location: SourceLocation(path: "reference.yaml", range: SourceRange(at: SourcePosition(line: 3, column: 5))))])]
    let policy = try! RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [Data(listJSON.utf8)])
    return policy.engine.lists[0]
}

let probes: [ContentLoad] = {
    let pages = ["https://news.example/", "https://partner.example/p", "https://x.safe.example/", "http://plain.example/"]
    let urls = ["https://ads.example.net/x.js", "https://a.ads.example.net:8080/", "https://cdn.example.org/track/a/b.js", "https://cdn.example.org/other.js",
                "https://site.example/adserver/banner.gif", "https://h.example/bx12y", "https://h.example/BX12Y", "http://third.example/i.png",
                "https://good.example/tracker", "https://abcdefghijklmnopqrstuvwxyz.example/", "https://f.example/ping?frame=1", "https://é.example/ads.example.net/"]
    var loads: [ContentLoad] = []
    for page in pages {
        let top = try! CanonicalURL.parse(page).get()
        for (index, url) in urls.enumerated() {
            guard let parsed = try? CanonicalURL.parse(url).get() else { continue }
            let type: ResourceType = [.script, .image, .fetch, .ping, .childDocument][index % 5]
            loads.append(ContentLoad(url: parsed, resourceType: type, topURL: top, frameURL: index % 3 == 0 ? parsed : top, isMainFrame: index % 3 != 0,
                                     method: .get, isThirdParty: index % 2 == 0))
        }
    }
    return loads
}()

/// What an engine does to the probes, comparable across engines.
func decisions(_ engine: ContentRuleEngine) -> [String] {
    var cache = ContentRuleEngine.ConditionCache()
    return probes.map { load in
        let result = engine.evaluate(load, cache: &cache)
        return "\(result.matched) \(result.surviving) \(String(describing: result.ignoredBy)) \(result.matchedOrigins.map { "\($0.index)@\($0.location?.start.description ?? "-")" })"
    }
}

let reference = referenceEngine()
let identity = EngineImageFile.ListIdentity(of: Array(listJSON.utf8))
let image = EngineImageFile.bytes(of: reference, list: identity)
let expected = decisions(reference)
let headerSize = 128

func load(_ bytes: [UInt8]) -> Result<ContentRuleEngine, ImageError> {
    do throws(ImageError) {
        return .success(try EngineImageFile.engine(from: ImageBytes(copying: bytes), list: identity))
    } catch {
        return .failure(error)
    }
}

func fuzzEngineImage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let mode = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    switch mode % 3 {
    case 0:
        switch load(rest) {
        case .failure(let error): Invariant.check(!error.reason.isEmpty, "an image refused without a reason")
        case .success(let engine): Invariant.check(decisions(engine) == expected, "an accepted image decides otherwise than its list")
        }
    case 1:
        guard rest.count >= 4 else { return 0 }
        let offset = headerSize + Int(UInt32(rest[0]) | UInt32(rest[1]) << 8 | UInt32(rest[2]) << 16) % max(image.count - headerSize, 1)
        var damaged = image
        for (index, byte) in rest.dropFirst(3).enumerated() where offset + index < damaged.count { damaged[offset + index] = byte }
        let checksum = ImageChecksum.of(damaged[headerSize...])
        withUnsafeBytes(of: checksum.littleEndian) { for (index, byte) in $0.enumerated() { damaged[32 + index] = byte } }
        switch load(damaged) {
        case .failure(let error): Invariant.check(!error.reason.isEmpty, "an image refused without a reason")
        case .success(let engine): _ = decisions(engine)
        }
    default:
        guard rest.count >= 2 else { return 0 }
        let length = Int(UInt16(rest[0]) | UInt16(rest[1]) << 8) % (image.count * 2)
        guard length != image.count else { return 0 }
        let resized = length < image.count ? Array(image.prefix(length)) : image + Array(repeating: 0, count: length - image.count)
        if case .success = load(resized) { Invariant.check(false, "an image of \(length) bytes was accepted for one of \(image.count)") }
    }
    return 0
}

// `FUZZ_WRITE_SEED=FILE`: writes the reference image as a mode-0 input (a seed) and stops.
if let seed = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEED"] {
    FileManager.default.createFile(atPath: seed, contents: Data([0] + image))
    exit(0)
}
Fuzzer.run { start, count in fuzzEngineImage(start, count) }
