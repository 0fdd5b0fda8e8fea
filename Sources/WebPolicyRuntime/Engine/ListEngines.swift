import Foundation
import URLFilter

/// The engines of a compiled policy's content-rule lists, had the cheapest way that is safe:
/// each list's engine image mapped and used in place when it is the image of that very list
/// (`EngineImageFile` checks version, layout, the list's SHA-256 and size, the checksum and
/// every table), else an image an earlier launch left in the cache folder, else the engine
/// built from the list — as WebKit looks a compiled content-rule list up before it compiles
/// the JSON again. What `webpolicy compile` writes as images is built here too
/// (`imageBytes`), so the two cannot differ.
package enum ListEngines {
    /// Loads every list of `manifest` (read without sources) from `folder`; `withSources`
    /// reads the manifest again with them, the first time a list must be built.
    static func load(_ manifest: Manifest, from folder: URL, imageCache: URL?,
                     withSources: () throws(RuntimePolicyError) -> Manifest) throws(RuntimePolicyError) -> (engines: [ContentRuleEngine], loads: [RuntimePolicy.ListLoad]) {
        var engines: [ContentRuleEngine] = []
        var loads: [RuntimePolicy.ListLoad] = []
        var full: Manifest?
        var offset = 0
        for (index, entry) in manifest.contentRuleLists.enumerated() {
            let listURL = folder.appendingPathComponent(entry.file)
            guard let size = Self.size(of: listURL) else { throw .missingList(identifier: entry.identifier, file: entry.file) }
            let identity = entry.sha256.flatMap { EngineImageFile.ListIdentity(hexSHA256: $0, size: size) }
            var reason: String
            switch (entry.image, identity) {
            case (let image?, let identity?):
                do {
                    let engine = try EngineImageFile.engine(from: MappedFile.map(folder.appendingPathComponent(image).path), list: identity)
                    engines.append(engine)
                    loads.append(RuntimePolicy.ListLoad(identifier: entry.identifier, source: .image(file: image)))
                    offset += engine.count
                    continue
                } catch {
                    reason = "its engine image \(image) was not used: \(error.reason)"
                }
            case (nil, _): reason = "the manifest names no engine image for it (compiled by a webpolicy without images)"
            case (_, nil): reason = "the manifest records no SHA-256 for it, so no image can be matched to it"
            }
            let cached = imageCache.map { $0.appendingPathComponent(entry.identifier + "." + EngineImageFile.fileExtension) }
            if let cached, let identity, FileManager.default.fileExists(atPath: cached.path) {
                if let engine = try? EngineImageFile.engine(from: MappedFile.map(cached.path), list: identity) {
                    engines.append(engine)
                    loads.append(RuntimePolicy.ListLoad(identifier: entry.identifier, source: .cachedImage(path: cached.path)))
                    offset += engine.count
                    continue
                }
                reason += "; the cached image was not usable either"
            }
            if full == nil { full = try withSources() }
            let bytes = try RuntimePolicy.read(listURL)
            let (engine, list) = try built(full!.contentRuleLists[index], bytes, offset: offset, identifying: cached != nil)
            var load = RuntimePolicy.ListLoad(identifier: entry.identifier, source: .list(reason: reason))
            if let cached, let list {
                load.cacheProblem = write(EngineImageFile.bytes(of: engine, list: list), to: cached)
            }
            engines.append(engine)
            loads.append(load)
            offset += engine.count
        }
        return (engines, loads)
    }

    /// The engine of one list, built from its bytes: checked against the manifest's SHA-256,
    /// read with the port of WebKit's parser (a list it refuses is refused here with its
    /// reason), each rule with the policy rule it came from; `offset`: the rules of the
    /// policy's lists before it.
    package static func build(_ entry: Manifest.ContentRuleList, _ bytes: Data, offset: Int) throws(RuntimePolicyError) -> ContentRuleEngine {
        try built(entry, bytes, offset: offset, identifying: false).engine
    }

    /// `build`, with the identity of the list the engine was built from when `identifying`
    /// (an image is to be written) or the manifest records a SHA-256 to check: the list is
    /// hashed at most once, for both (hashing a list of megabytes was most of a compile in a
    /// debug build), and not at all when neither needs it.
    private static func built(_ entry: Manifest.ContentRuleList, _ bytes: Data, offset: Int, identifying: Bool)
        throws(RuntimePolicyError) -> (engine: ContentRuleEngine, list: EngineImageFile.ListIdentity?) {
        let list = identifying || entry.sha256 != nil ? EngineImageFile.ListIdentity(of: bytes) : nil
        if let expected = entry.sha256, let list, list.hexSHA256 != expected {
            throw .staleList(identifier: entry.identifier, file: entry.file, expectedSHA256: expected, foundSHA256: list.hexSHA256)
        }
        // The kept rules' regexes are parsed by the engine alone; one it refuses sends the
        // list through the whole parser again, for WebKit's error and its place.
        let engine = ContentRuleEngine(ruleNodes: try rules(of: entry, bytes, offset: offset, deferringKeptRulesRegexes: true))
        if engine.refusesAFilter { _ = try rules(of: entry, bytes, offset: offset, deferringKeptRulesRegexes: false) }
        return (engine, list)
    }

    /// The engine image of one list, as `webpolicy compile` writes it beside the list.
    package static func imageBytes(_ entry: Manifest.ContentRuleList, _ bytes: Data, offset: Int) throws(RuntimePolicyError) -> (image: [UInt8], ruleCount: Int) {
        let (engine, list) = try built(entry, bytes, offset: offset, identifying: true)
        return (EngineImageFile.bytes(of: engine, list: list ?? EngineImageFile.ListIdentity(of: bytes)), engine.count)
    }

    private static func rules(of entry: Manifest.ContentRuleList, _ bytes: Data, offset: Int, deferringKeptRulesRegexes: Bool) throws(RuntimePolicyError) -> [(rule: JSONNode, origin: RuleOrigin)] {
        let parsed = WebKitRuleListParser.parse(String(decoding: bytes, as: UTF8.self), deferringKeptRulesRegexes: deferringKeptRulesRegexes)
        if let error = parsed.errors.first {
            throw .invalidList(identifier: entry.identifier, file: entry.file, message: error.message, line: error.range.start.line, column: error.range.start.column)
        }
        var sourceOfRule: [Int: Manifest.RuleSource] = [:]
        for source in entry.sources {
            for index in source.firstRule..<(source.firstRule + max(source.ruleCount, 0)) { sourceOfRule[index] = source }
        }
        return parsed.keptRules.map { kept in
            let source = sourceOfRule[kept.index]
            return (kept.rule, RuleOrigin(index: offset + kept.index, id: source?.id, location: source?.location))
        }
    }

    private static func size(of url: URL) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path), (attributes[.type] as? FileAttributeType) == .typeRegular else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    /// Writes an image into the cache folder through a temporary file and a rename, so a
    /// reader never maps half an image; nil, or what went wrong.
    private static func write(_ bytes: [UInt8], to url: URL) -> String? {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary)
            // rename(2) replaces the old file in one step.
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))]) }
            return nil
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return "cannot write \(url.path): \(error.localizedDescription)"
        }
    }
}
