import Foundation

/// Which files of a target are policies, and what a policy's build reads: shared by both
/// plugins (linked into each plugin's folder: plugins cannot share a module).
enum PolicyFiles {
    /// `*.webpolicy.yaml` and `*.webpolicy.yml`.
    static func isPolicy(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        return name.hasSuffix(".webpolicy.yaml") || name.hasSuffix(".webpolicy.yml")
    }

    /// The code `webpolicy audit` reads in a target: Swift, Objective-C, Info.plists,
    /// entitlements, storyboards and xibs.
    static func isAuditedCode(_ url: URL) -> Bool {
        ["swift", "m", "mm", "h", "storyboard", "xib", "entitlements"].contains(url.pathExtension) || url.lastPathComponent.hasSuffix("Info.plist")
    }

    /// Files a policy's compile reads besides itself: the files its `include:` entries name,
    /// and theirs, followed through a small reading of the YAML (a block list or a flow list
    /// of plain or quoted paths). The build command declares them as inputs, so a change to an
    /// included file rebuilds; an entry this reading misses is still linted, only not watched.
    static func includes(of policy: URL) -> [URL] {
        var found: [URL] = []
        var queue = [policy]
        var seen: Set<String> = [policy.standardizedFileURL.path]
        while let file = queue.popLast() {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for entry in includeEntries(in: text) {
                let url = URL(fileURLWithPath: entry, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
                guard seen.insert(url.path).inserted else { continue }
                found.append(url)
                queue.append(url)
            }
        }
        return found
    }

    /// The paths of a top-level `include:` key.
    static func includeEntries(in text: String) -> [String] {
        var entries: [String] = []
        var inBlock = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if line.hasPrefix("include:") {
                let rest = line.dropFirst("include:".count).trimmingCharacters(in: .whitespaces)
                if rest.hasPrefix("[") {
                    entries += rest.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").map { unquote(String($0)) }
                    inBlock = false
                } else if !rest.isEmpty {
                    entries.append(unquote(rest))
                    inBlock = false
                } else {
                    inBlock = true
                }
                continue
            }
            guard inBlock else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("- ") || trimmed == "-" {
                entries.append(unquote(String(trimmed.dropFirst(1))))
            } else if !line.hasPrefix(" ") && !line.hasPrefix("\t") {
                inBlock = false
            }
        }
        return entries.filter { !$0.isEmpty }
    }

    private static func unquote(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, let first = trimmed.first, first == "\"" || first == "'", trimmed.last == first {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }

    /// The package's `.webpolicy.yml`, if it has one: it applies to every policy.
    static func configuration(in package: URL) -> URL? {
        let url = package.appendingPathComponent(".webpolicy.yml")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
