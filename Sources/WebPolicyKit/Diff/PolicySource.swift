import Foundation

/// One version of a policy for `webpolicy diff`: a file, or `git:REV:path` — the file as it
/// was at a revision, read with the files it includes and the lists it references from that
/// same revision. The path is git's (`git show REV:path`): from the repository's top, or from
/// the working folder when it starts with `./` or `../`.
public final class PolicySource {
    /// As the user wrote it, for headings.
    public let label: String
    /// The policy's path as messages show it.
    public let path: String
    /// Where relative paths are opened from (the revision's files), nil for the working folder.
    public let baseDirectory: String?
    private let temporary: String?

    public static let gitPrefix = "git:"

    public init(_ text: String) throws(InputError) {
        label = text
        guard text.hasPrefix(Self.gitPrefix) else {
            path = text
            baseDirectory = nil
            temporary = nil
            return
        }
        let rest = text.dropFirst(Self.gitPrefix.count)
        guard let colon = rest.firstIndex(of: ":"), colon != rest.startIndex, rest.index(after: colon) != rest.endIndex else {
            throw InputError("'\(text)' is not git:REV:path (for example git:main:policies/app.yaml)")
        }
        let revision = String(rest[..<colon])
        let written = String(rest[rest.index(after: colon)...])
        let checkout = try Self.checkOut(revision: revision, path: written, label: text)
        path = checkout.path
        baseDirectory = checkout.base
        temporary = checkout.temporary
    }

    deinit {
        if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
    }

    /// Lints and loads the policy; its errors (or its absence) are input errors of the diff.
    public func load(configuration: LintConfiguration) throws(InputError) -> (report: LintReport, policy: Policy?) {
        try Linter(configuration: configuration, baseDirectory: baseDirectory).lintLoading(path: path)
    }

    /// The revision's policy files (`*.yaml`, `*.yml`, `*.json`: policies, includes and lists)
    /// written out to a temporary folder with `git archive`; the policy's path in it.
    private static func checkOut(revision: String, path written: String, label: String) throws(InputError) -> (path: String, base: String, temporary: String) {
        let top = try git(["rev-parse", "--show-toplevel"], in: nil, what: "\(label): not inside a git repository").trimmingCharacters(in: .newlines)
        let prefix = try git(["rev-parse", "--show-prefix"], in: nil, what: label).trimmingCharacters(in: .newlines)
        _ = try git(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: top, what: "\(label): git knows no revision '\(revision)'")
        // git's own reading of the path: `./` and `../` from the working folder, else from the top.
        let fromWorkingFolder = written.hasPrefix("./") || written.hasPrefix("../")
        let inRepository = fromWorkingFolder ? PathNormalizer.display(prefix + written) : PathNormalizer.display(written)
        guard !inRepository.hasPrefix("../") else { throw InputError("\(label): the path leaves the repository") }
        let kind = try git(["cat-file", "-t", "\(revision):\(inRepository)"], in: top, what: "\(label): \(inRepository) does not exist at \(revision)")
        guard kind.trimmingCharacters(in: .newlines) == "blob" else { throw InputError("\(label): \(inRepository) is not a file at \(revision)") }

        let names = try git(["ls-tree", "-r", "--name-only", "-z", revision], in: top, what: label).split(separator: "\0")
        let extensions = ["yaml", "yml", "json"].filter { ext in names.contains { $0.hasSuffix("." + ext) } }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-diff-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        } catch {
            throw InputError("\(label): cannot make a temporary folder: \(error.localizedDescription)")
        }
        let archive = temporary + "/revision.tar"
        let tree = temporary + "/tree"
        do {
            try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw InputError("\(label): cannot make a temporary folder: \(error.localizedDescription)")
        }
        do throws(InputError) {
            _ = try git(["archive", "--format=tar", "-o", archive, revision, "--"] + extensions.map { "*." + $0 }, in: top, what: label)
            let untar = Subprocess.run("/usr/bin/env", ["tar", "-x", "-f", archive, "-C", tree])
            guard untar.status == 0 else { throw InputError("\(label): tar: \(String(decoding: untar.errors, as: UTF8.self))") }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        // Shown as the user would see it in a checkout of the revision.
        let shown = fromWorkingFolder ? PathNormalizer.display(written) : inRepository
        let base = fromWorkingFolder ? (prefix.isEmpty ? tree : tree + "/" + prefix) : tree
        return (shown, base, temporary)
    }

    /// git's standard output; its standard error in the input error when it fails.
    private static func git(_ arguments: [String], in directory: String?, what: String) throws(InputError) -> String {
        let result = Subprocess.run("/usr/bin/env", ["git"] + arguments, directory: directory)
        guard result.status == 0 else {
            let detail = String(decoding: result.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw InputError(result.status == 127 ? "\(what): git is not installed" : (detail.isEmpty ? what : "\(what) (\(detail))"))
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}
