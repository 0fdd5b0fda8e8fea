import Foundation
import Testing
import TestSupport
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Every section of a policy goes through every stage: the schema declares it, the loader
/// decodes it, includes merge it, the manifest carries it and reads it back, `diff` compares it
/// and coverage counts it. Each stage reads `Sections.all`; this test fails when a section is
/// left out of the registry or out of any stage — the way `diff` once compared six sections of
/// ten and said "no changes" to a bridge opened to another origin.
///
/// Each section's sample is the `old.yaml` of its `diff` fixture (Tests/Fixtures/diff), which
/// writes that section and no other; `new.yaml` changes one of its fields.
@Suite("Section registry: every section in every stage")
struct SectionRegistryTests {
    /// The diff fixture of each section.
    static let samples: [String: String] = [
        "http-allowlist": "allowlist-subdomains",
        "scheme-allowlist": "scheme-hosts-widened",
        "content-rules": "rule-narrowed",
        "content-rule-lists": "list-replaced",
        "cookies": "cookie-via",
        "interception": "interception-methods",
        "navigation": "navigation-otherwise",
        "app-bound-domains": "app-bound-limit",
        "bridges": "bridge-origin-added",
        "webview": "webview-inspectable",
        "runtime-hosts": "role-http-rule",
    ]

    /// Sections no request's explanation names an entry of, and why.
    static let notExplained: [String: String] = [
        "webview": "settings configure the view; explain names javascript only when it refuses a message",
    ]

    /// Sections coverage has no items for, and why.
    static let notCovered: [String: String] = [
        "webview": "settings configure the view before any request; no request is decided by a setting alone",
    ]

    static var keys: [String] { Sections.all.map { $0.key } }

    static func folder(of key: String) -> String { Repository.path("Tests/Fixtures/diff/\(samples[key] ?? "missing-\(key)")") }

    static func load(_ path: String) throws -> Policy {
        let result = PolicyLoader().load(path: path)
        #expect(!result.diagnostics.contains { $0.severity == .error }, "\(path): \(result.diagnostics.map(\.message))")
        return try #require(result.policy, "\(path) did not load")
    }

    static func section(_ key: String) throws -> any PolicySection.Type {
        try #require(Sections.all.first { $0.key == key })
    }

    @Test func theRegistryListsEveryTopLevelKeyOnceAndTheSchemaDeclaresThem() throws {
        #expect(Set(Self.keys).count == Self.keys.count, "a section is registered twice")
        #expect(PolicyKeys.topLevel == Sections.headerKeys + Self.keys)
        let data = try #require(FileManager.default.contents(atPath: Repository.path("schemas/webpolicy.schema.json")))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(Sections.headerKeys + Self.keys), "schemas/webpolicy.schema.json's top-level keys are not the registry's")
        let definitions = try #require(schema["$defs"] as? [String: Any])
        for section in Sections.all {
            #expect(!section.schemaDefinitions.isEmpty, "\(section.key) names no schema definition")
            for (name, keys) in section.schemaDefinitions {
                let definition = try #require(definitions[name] as? [String: Any], "the schema has no definition \(name) for \(section.key)")
                let declared = Set(((definition["properties"] as? [String: Any]) ?? [:]).keys)
                #expect(declared == Set(keys), "the schema's \(name) declares \(declared.sorted()), the loader reads \(keys)")
            }
        }
    }

    @Test func everySectionHasASampleThatWritesItAndNoOther() {
        #expect(Set(Self.samples.keys) == Set(Self.keys), "every registered section needs a diff fixture here, and only those")
    }

    @Test(arguments: Sections.all.map { $0.key })
    func decodeFindsTheSectionInItsOwnPlace(key: String) throws {
        let policy = try Self.load(Self.folder(of: key) + "/old.yaml")
        let document = try #require(policy.documents.last)
        for section in Sections.all {
            if section.key == key {
                #expect(section.census(document) > 0, "decode left \(key) out")
            } else {
                #expect(section.census(document) == 0, "decoding \(key)'s sample put entries into \(section.key)")
            }
        }
    }

    @Test(arguments: Sections.all.map { $0.key })
    func anIncludedSectionIsMergedIntoTheIncludingPolicy(key: String) throws {
        let source = URL(fileURLWithPath: Self.folder(of: key))
        let folder = try TemporaryFolder.make("webpolicy-registry")
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        // The including file says what the policy ships to; an included one may not.
        let alone = try Self.load(source.appendingPathComponent("old.yaml").path)
        var lines = try String(contentsOf: source.appendingPathComponent("old.yaml"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        if let start = lines.firstIndex(of: "target:") {
            let end = lines[(start + 1)...].firstIndex { !$0.hasPrefix(" ") } ?? lines.endIndex
            lines.removeSubrange(start..<end)
        }
        try lines.joined(separator: "\n").write(to: folder.appendingPathComponent("included.yaml"), atomically: true, encoding: .utf8)
        try "webpolicy: 1\nname: root\ntarget:\n  ios: \"\(alone.targetVersion)\"\ninclude: [included.yaml]\n"
            .write(to: folder.appendingPathComponent("root.yaml"), atomically: true, encoding: .utf8)
        let merged = try Self.load(folder.appendingPathComponent("root.yaml").path)
        let section = try Self.section(key)
        #expect(section.census(alone) > 0)
        #expect(section.census(merged) == section.census(alone), "the merge of \(key) across an include lost entries")
    }

    @Test(arguments: Sections.all.map { $0.key })
    func theManifestWritesTheSectionAndReadsItBack(key: String) throws {
        let path = Self.folder(of: key) + "/old.yaml"
        let result = try PolicyCompiler().compile(path: path)
        #expect(!result.hasErrors)
        let text = try #require(result.artefacts.first { $0.kind == .manifest }?.contents, "no manifest for \(key)")
        let manifest = try Manifest.decode(text).get()
        let section = try Self.section(key)
        #expect(section.census(manifest) > 0, "the manifest of \(key)'s sample has none of it")
        for other in Sections.all where other.key != key {
            #expect(other.census(manifest) == 0, "\(key)'s sample lowered into \(other.key)")
        }
        let policy = try Self.load(path)
        let lowered = RuntimeManifest.make(policy, lists: [])
        if !["content-rules", "content-rule-lists"].contains(key) {
            #expect(section.census(lowered) == section.census(manifest), "\(key) did not survive the manifest file")
        }
    }

    @Test(arguments: Sections.all.map { $0.key })
    func diffReportsAChangedField(key: String) throws {
        let folder = Self.folder(of: key)
        let comparison = PolicyComparison(old: try Self.load(folder + "/old.yaml"), new: try Self.load(folder + "/new.yaml"))
        let kinds = try Self.section(key).entryKinds
        #expect(comparison.differences.contains { kinds.contains($0.kind) && !$0.fields.isEmpty },
                "diff did not see the change to \(key): \(comparison.differences.map { "\($0.kind) \($0.name)" })")
    }

    @Test(arguments: Sections.all.map { $0.key })
    func coverageCountsTheSection(key: String) throws {
        let policy = try Self.load(Self.folder(of: key) + "/old.yaml")
        let kinds = try Self.section(key).entryKinds
        let items = Coverage(policy: policy).items.filter { kinds.contains($0.kind.rawValue) }
        if Self.notCovered[key] != nil {
            #expect(items.isEmpty)
        } else {
            #expect(!items.isEmpty, "coverage has no item for \(key)")
        }
    }

    /// Lint categories no one section owns, and why.
    static let crossCuttingCategories: [RuleCategory: String] = [
        .urlFilters: "url-filter regexes are checked wherever they are written: content rules and referenced lists",
        .targets: "the target and WebKit's limits weigh the whole policy",
        .appCode: "the audit's rules, under Sources/WebPolicyAudit/Rules by the app's feature",
        .appHazards: "the audit's rules, under Sources/WebPolicyAudit/Rules by the app's feature",
    ]

    /// The house's other lists name the same sections: each section's lint category has its
    /// folder and every category is a section's or cross-cutting; each folder of lint rules is
    /// a category's and each rule in it declares that category; each coverage kind belongs to
    /// one section; each pipeline step decides by a section; each section has its folder.
    @Test func theHousesListsNameTheSameSections() throws {
        let claimed = Set(Sections.all.map { $0.ruleCategory })
        for category in RuleCategory.allCases {
            #expect(claimed.contains(category) != (Self.crossCuttingCategories[category] != nil),
                    "\(category.rawValue) must be one section's lint category or listed as cross-cutting, not both or neither")
        }
        let rulesRoot = Repository.path("Sources/WebPolicyKit/Lint/Rules")
        let folders = try FileManager.default.contentsOfDirectory(atPath: rulesRoot).filter { !$0.hasSuffix(".swift") }
        #expect(Set(folders) == Set(RuleCategory.allCases.compactMap(\.lintFolder)), "Lint/Rules folders and categories differ")
        for category in RuleCategory.allCases {
            guard let folder = category.lintFolder else { continue }
            for file in (try? FileManager.default.contentsOfDirectory(atPath: rulesRoot + "/" + folder)) ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: rulesRoot + "/" + folder + "/" + file, encoding: .utf8)
                #expect(text.contains("category: .\(category)"), "\(folder)/\(file) is not in category \(category.rawValue)")
            }
        }
        var owner: [String: String] = [:]
        for section in Sections.all {
            for kind in section.entryKinds where kind != "setting" {
                #expect(owner[kind] == nil, "coverage kind '\(kind)' belongs to \(owner[kind] ?? "") and \(section.key)")
                owner[kind] = section.key
            }
        }
        #expect(Set(owner.keys) == Set(Coverage.Kind.allCases.map(\.rawValue)), "coverage kinds no section names: \(Set(Coverage.Kind.allCases.map(\.rawValue)).subtracting(owner.keys).sorted())")
        let steps = Set(Sections.all.flatMap { $0.pipelineSteps })
        #expect(steps == Set(PipelineStep.allCases), "pipeline steps no section decides: \(Set(PipelineStep.allCases).subtracting(steps))")
        for section in Sections.all where section.pipelineSteps.isEmpty {
            #expect(Self.notCovered[section.key] != nil, "\(section.key) decides no request but coverage expects items of it")
        }
        let sectionFolders = try FileManager.default.contentsOfDirectory(atPath: Repository.path("Sources/WebPolicyKit/Sections")).filter { !$0.hasSuffix(".swift") }
        #expect(sectionFolders.count == Sections.all.count, "a section without its folder under Sections/, or a folder without a section: \(sectionFolders.sorted())")
    }

    /// Simulating the sample's trace exercises one of the section's coverage items: the step
    /// that decides by a section marks what it decided, so a section that forgets to mark is
    /// reported here rather than as "not exercised" in every user's coverage.
    @Test(arguments: Sections.all.map { $0.key })
    func aRequestDecidedByTheSectionMarksItsItem(key: String) throws {
        let folder = Self.folder(of: key)
        let policy = try Self.load(folder + "/old.yaml")
        let text = try String(contentsOfFile: folder + "/requests.trace", encoding: .utf8)
        let parsed = TraceParser.parse(SourceFile(path: folder + "/requests.trace", text: text))
        #expect(parsed.problems.isEmpty, "\(key)'s trace: \(parsed.problems)")
        var coverage = Coverage(policy: policy)
        for result in Simulator(policy: policy, publicSuffixList: .bundled()).run(parsed.trace) { coverage.add(result) }
        let kinds = try Self.section(key).entryKinds
        let ofSection = coverage.items.filter { kinds.contains($0.kind.rawValue) }
        let unmarked = coverage.unexercised.filter { kinds.contains($0.kind.rawValue) }
        if Self.notCovered[key] == nil {
            #expect(unmarked.count < ofSection.count, "no request of \(key)'s trace marked any of \(ofSection.map(\.name))")
        }
    }

    /// `explain` of the sample's trace lines names one of the section's entries, where it is
    /// written: each step that decides by a section says which entry decided.
    @Test(arguments: Sections.all.map { $0.key })
    func explainNamesTheSectionsEntries(key: String) throws {
        let folder = Self.folder(of: key)
        let policy = try Self.load(folder + "/old.yaml")
        let kinds = try Self.section(key).entryKinds
        // Where each entry is written; a referenced list's rules are named in its own file.
        let places = Coverage(policy: policy).items.filter { kinds.contains($0.kind.rawValue) }
            .map { $0.kind == .contentRuleList ? "(\($0.name):" : "(\($0.location.described))" }
        var explainer = Explainer(policy: policy, publicSuffixList: PublicSuffixList.bundled())
        var explanations: [String] = []
        var page: String?
        let trace = try String(contentsOfFile: folder + "/requests.trace", encoding: .utf8)
        for line in trace.split(separator: "\n") where !line.hasPrefix("#") {
            var fields = line.split(separator: " ").map(String.init)
            if fields[0].contains(":") { fields.insert("page", at: 0) }
            let value = { (name: String) in fields.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) } }
            let type = value("type") ?? fields[0]
            if type == "bind", let equals = fields[1].firstIndex(of: "=") {
                // A binding the policy refuses binds nothing; the lines after it explain unbound.
                try? explainer.bind(BindRequest(role: String(fields[1][..<equals]), url: try CanonicalURL.parse(String(fields[1][fields[1].index(after: equals)...])).get()))
                continue
            }
            if type == "message" {
                explanations.append(try explainer.explainMessage(url: fields[1], handler: value("handler") ?? "", frame: .main, world: .page).text)
                continue
            }
            explanations.append(try explainer.explain(url: fields[1], type: type, top: value("top") ?? page, method: value("method")).text)
            if type == "page" { page = fields[1] }
        }
        let named = explanations.contains { text in places.contains { text.contains($0) } }
        if Self.notExplained[key] != nil {
            #expect(!named)
        } else {
            #expect(named, "no explanation of \(key)'s sample names one of its entries \(places): \(explanations)")
        }
    }
}

/// The manifest compile writes for each section's sample is what
/// `schemas/runtime-manifest.schema.json` says a manifest is, checked in-process: a member the
/// writer gains and the schema lacks (or the reverse) fails here, not only in CI's script.
@Suite("Section registry: the runtime schema")
struct RuntimeSchemaRegistryTests {
    static var validator: JSONSchemaValidator? {
        guard let data = FileManager.default.contents(atPath: Repository.path("schemas/runtime-manifest.schema.json")) else { return nil }
        return try? JSONSchemaValidator(schema: data)
    }

    @Test(arguments: Sections.all.map { $0.key })
    func theSamplesManifestValidates(key: String) throws {
        let validator = try #require(Self.validator)
        let result = try PolicyCompiler().compile(path: SectionRegistryTests.folder(of: key) + "/old.yaml")
        let text = try #require(result.artefacts.first { $0.kind == .manifest }?.contents)
        let problems = try validator.problems(Data(text.utf8))
        #expect(problems.isEmpty, "\(key): \(problems)")
    }

    /// The runtime schema's members are the manifest's header and its parts, each written
    /// and read beside its section; no part asks a newer reader than the runtime is.
    @Test func theSchemasMembersAreTheManifestsParts() throws {
        let validator = try #require(Self.validator)
        let members = Set((validator.root["properties"] as? [String: Any] ?? [:]).keys)
        #expect(members == Set(["webpolicyManifest", "policy", "target"] + Manifest.parts.map { $0.member }))
        #expect(Set(Manifest.parts.map { $0.member }).count == Manifest.parts.count)
        #expect(Manifest.parts.allSatisfy { $0.since >= 1 && $0.since <= Manifest.formatVersion })
    }

    /// The validator is no rubber stamp: a manifest without a member the schema requires, with
    /// one it does not declare, or with a value of the wrong type is refused.
    @Test func aBrokenManifestIsRefused() throws {
        let validator = try #require(Self.validator)
        let result = try PolicyCompiler().compile(path: SectionRegistryTests.folder(of: "webview") + "/old.yaml")
        let text = try #require(result.artefacts.first { $0.kind == .manifest }?.contents)
        let broken = [
            text.replacingOccurrences(of: "\"elementFullscreen\": false,", with: ""),
            text.replacingOccurrences(of: "\"elementFullscreen\": false,", with: "\"elementFullscreen\": false, \"notAWebViewSetting\": true,"),
            text.replacingOccurrences(of: "\"elementFullscreen\": false,", with: "\"elementFullscreen\": \"no\","),
        ]
        for manifest in broken {
            #expect(manifest != text)
            #expect(!(try validator.problems(Data(manifest.utf8))).isEmpty, "\(manifest)")
        }
    }
}
