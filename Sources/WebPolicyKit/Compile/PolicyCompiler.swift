import Foundation
import WebPolicyRuntime

/// One file `webpolicy compile` writes.
public struct Artefact: Sendable {
    public enum Kind: String, Sendable {
        case contentRules = "content-rules"
        /// A list's engine image (`EngineImageFile`): binary.
        case engineImage = "engine-image"
        case ats
        case manifest
    }

    public var kind: Kind
    public var fileName: String
    /// The file's bytes.
    public var data: [UInt8]

    public init(kind: Kind, fileName: String, contents: String) {
        self.init(kind: kind, fileName: fileName, data: Array(contents.utf8))
    }

    public init(kind: Kind, fileName: String, data: [UInt8]) {
        self.kind = kind
        self.fileName = fileName
        self.data = data
    }

    /// The text of a text artefact (every kind but `engineImage`).
    public var contents: String { String(decoding: data, as: UTF8.self) }
}

public struct CompileResult: Sendable {
    /// Empty when the policy has errors: nothing may be written then.
    public var artefacts: [Artefact]
    /// Lint diagnostics of the policy, then compile's own.
    public var report: LintReport
    public var hasErrors: Bool { report.count(.error) > 0 }
    /// The file-name-safe policy name the artefacts start with (`ArtefactWriter` clears the
    /// stale ones of the same name).
    public var slug = "policy"
}

/// Turns a policy into what the app loads: lint first (any error and nothing is produced),
/// then the content-blocker lists (split at the target's rule limit), the ATS fragment and the
/// runtime manifest. Every list is run through the port of WebKit's parser before it is
/// returned, as WebKit's compiler re-parses its input in debug builds.
public struct PolicyCompiler: Sendable {
    public var configuration: LintConfiguration
    public var baseDirectory: String?
    /// Lists larger than this many bytes of JSON get a `compile-list-size` warning.
    public var listSizeWarning = Self.defaultListSizeWarning
    /// Whether an engine image is written beside each list (always, from the command line).
    public var engineImages = true
    /// Told of each stage: linting, then each list's engine.
    public var progress: ProgressObserver?

    public init(configuration: LintConfiguration = LintConfiguration(), baseDirectory: String? = nil) {
        self.configuration = configuration
        self.baseDirectory = baseDirectory
    }

    /// Roughly where WebKit's compile time and memory on a device become a problem (AdGuard
    /// reports lists failing from about 19 MB).
    public static let defaultListSizeWarning = 20 * 1024 * 1024

    public func compile(path: String) throws(InputError) -> CompileResult {
        defer { progress?.end() }
        progress?.begin(ProgressStage("linting \(path)", unit: .files))
        let (lint, policy) = try Linter(configuration: configuration, baseDirectory: baseDirectory).lintLoading(path: path)
        return compile(policy, lint: lint)
    }

    /// Compiles a policy held in memory; `path` names it in diagnostics and resolves includes.
    public func compile(text: String, path: String) -> CompileResult {
        let (lint, policy) = Linter(configuration: configuration, baseDirectory: baseDirectory).lintLoading(text: text, path: path)
        return compile(policy, lint: lint)
    }

    private func compile(_ loaded: Policy?, lint: LintReport) -> CompileResult {
        guard lint.count(.error) == 0, let policy = loaded else { return CompileResult(artefacts: [], report: lint) }
        var diagnostics = lint.diagnostics
        let build = PolicyBuild(policy)
        let (slug, plan) = (build.slug, build.plan)

        var lists: [Artefact] = []
        var listFiles: [RuntimeManifest.ListFile] = []
        for (index, list) in build.lists.enumerated() {
            if let external = list.external, let name = list.externalName {
                // A list the policy references, after its own, copied as it is: the app adds
                // exactly the vendor's list, under an identifier that changes with its content.
                let json = external.file.text
                let sha256 = SHA256.hex(json.utf8)
                lists.append(Artefact(kind: .contentRules, fileName: list.fileName, contents: json))
                listFiles.append(RuntimeManifest.ListFile(identifier: Self.listIdentifier(slug: name, sha256: sha256), fileName: list.fileName, rules: [],
                                                          sha256: sha256, image: Self.imageFileName(of: list.fileName), external: (external.reference, external.rules.count)))
                continue
            }
            let suffix = plan.lists.count == 1 ? "" : "-\(index + 1)"
            let json = JSONValue.array(list.rules.map(\.json)).serialized()
            diagnostics += Self.checkList(json, fileName: list.fileName, limit: plan.limit, sizeWarning: listSizeWarning,
                                          at: policy.root.file.location(at: policy.root.file.startPosition))
            lists.append(Artefact(kind: .contentRules, fileName: list.fileName, contents: json))
            let sha256 = SHA256.hex(json.utf8)
            listFiles.append(RuntimeManifest.ListFile(identifier: Self.listIdentifier(slug: slug + suffix, sha256: sha256), fileName: list.fileName, rules: list.rules,
                                                      sha256: sha256, image: Self.imageFileName(of: list.fileName)))
        }
        let manifestText = RuntimeManifest.render(policy, lists: listFiles)
        var artefacts = lists
        if engineImages, diagnostics.allSatisfy({ $0.severity != .error }) {
            artefacts += Self.engineImages(lists: lists, manifest: manifestText, diagnostics: &diagnostics,
                                           at: policy.root.file.location(at: policy.root.file.startPosition), progress: progress)
        }
        artefacts.append(Artefact(kind: .ats, fileName: "\(slug).ats.plist", contents: ATSPlist.render(policy)))
        artefacts.append(Artefact(kind: .manifest, fileName: "\(slug).manifest.json", contents: manifestText))

        let report = LintReport(diagnostics: diagnostics, sources: lint.sources, lintedFiles: lint.lintedFiles)
        return CompileResult(artefacts: report.count(.error) > 0 ? [] : artefacts, report: report, slug: slug)
    }

    /// The engine image of each list, built from the manifest as the app reads it (its
    /// sources, its paths) by the code the runtime rebuilds with (`ListEngines`), so that the
    /// image the app maps is the engine it would build.
    static func engineImages(lists: [Artefact], manifest text: String, diagnostics: inout [Diagnostic], at location: SourceLocation, progress: ProgressObserver? = nil) -> [Artefact] {
        guard case .success(let manifest) = Manifest.decode(text) else {
            diagnostics.append(Diagnostic(ruleID: CompileCheck.selfCheck.id, severity: .error, message: "the manifest compile wrote does not read back", location: location))
            return []
        }
        var images: [Artefact] = []
        var offset = 0
        let count = min(manifest.contentRuleLists.count, lists.count)
        for (position, (entry, list)) in zip(manifest.contentRuleLists, lists).enumerated() {
            guard let name = entry.image else { continue }
            progress?.begin(ProgressStage("building the engine of \(list.fileName)" + (count > 1 ? " (list \(position + 1) of \(count))" : ""), unit: .rules))
            do {
                let (image, ruleCount) = try ListEngines.imageBytes(entry, Data(list.data), offset: offset)
                offset += ruleCount
                images.append(Artefact(kind: .engineImage, fileName: name, data: image))
            } catch {
                diagnostics.append(Diagnostic(ruleID: CompileCheck.selfCheck.id, severity: .error, message: "the engine image of \(entry.file) cannot be built: \(error)", location: location))
            }
        }
        return images
    }

    /// `NAME.content-rules.json` → `NAME.content-rules.engine`.
    public static func imageFileName(of listFileName: String) -> String {
        (listFileName.hasSuffix(".json") ? String(listFileName.dropLast(5)) : listFileName) + "." + EngineImageFile.fileExtension
    }

    /// compile's checks of a list it wrote: WebKit's parser (ported) must accept it — WebKit's
    /// own compiler re-parses its input in debug builds for the same reason — and it should not
    /// be so large that devices struggle.
    static func checkList(_ json: String, fileName: String, limit: Int, sizeWarning: Int, at location: SourceLocation) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let error = WebKitRuleListParser.parse(json, maximumRuleCount: limit).errors.first {
            diagnostics.append(Diagnostic(
                ruleID: CompileCheck.selfCheck.id, severity: .error,
                message: "webpolicy produced \(fileName), but WebKit would refuse it: \(error.message)",
                location: location, hint: "this is a webpolicy bug; please report it with the policy"))
        }
        let size = json.utf8.count
        if size > sizeWarning {
            let megabytes = (Double(size) / 1_048_576 * 10).rounded() / 10
            diagnostics.append(Diagnostic(
                ruleID: CompileCheck.listSize.id, severity: .warning,
                message: "\(fileName) is \(megabytes) MB of JSON; WebKit compiles lists above about \(sizeWarning / 1_048_576) MB slowly, and devices may run out of memory",
                location: location, hint: "remove rules that never match, or merge rules that share a trigger"))
        }
        return diagnostics
    }

    /// The file-name-safe names of the policy's `content-rule-lists:` lists, made distinct.
    public static func externalListNames(_ policy: Policy) -> [String] {
        var used = Set<String>()
        return policy.contentRuleLists.map { external in
            var name = slug(external.name)
            if used.contains(name) { name += "-\(used.count + 1)" }
            used.insert(name)
            return name
        }
    }

    /// `NAME.content-rules.LIST.json`: a `content-rule-lists:` list, beside the policy's own.
    public static func externalListFileName(slug: String, list: String) -> String {
        "\(slug).content-rules.\(list).json"
    }

    /// Whether a list file is one of the policy's own (`listFileName`), not one it references.
    static func isOwnListFileName(_ fileName: String) -> Bool {
        guard fileName.hasSuffix(".json"), let range = fileName.range(of: ".content-rules", options: .backwards) else { return false }
        let rest = fileName[range.upperBound...].dropLast(5)
        return rest.isEmpty || (rest.hasPrefix("-") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1)
    }

    /// `NAME.content-rules.json`, or `NAME.content-rules-N.json` when the rules are split.
    public static func listFileName(slug: String, index: Int, of count: Int) -> String {
        "\(slug).content-rules\(count == 1 ? "" : "-\(index + 1)").json"
    }

    /// The list's `WKContentRuleListStore` identifier: its name and the first 16 hex digits
    /// (64 bits) of its SHA-256, so an app that ships changed rules never keeps running the
    /// list it compiled from the old ones.
    public static func listIdentifier(slug: String, sha256: String) -> String {
        "\(slug)-\(sha256.prefix(16))"
    }

    /// A file-name-safe form of the policy name: lowercase letters, digits, `.`, `_` and `-`.
    public static func slug(_ name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_" || scalar == "-" {
                slug.unicodeScalars.append(scalar)
            } else if !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        slug = String(slug.drop { $0 == "-" || $0 == "." }.reversed().drop { $0 == "-" }.reversed())
        return slug.isEmpty ? "policy" : slug
    }
}
