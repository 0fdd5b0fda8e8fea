import WebPolicyRuntime

/// `webpolicy lint LIST.json`: a bare WebKit content-blocker list — a vendor's, a downloaded
/// one — checked as WebKit reads it (the port of its parser: every error at the list's own
/// line and column, and what it ignores), against WebKit's rule limit, and by the lint rules:
/// the list is imported as a policy in memory, linted, and each finding is moved back to the
/// rule of the JSON it concerns (the member its key names, else the rule).
extension Linter {
    /// Whether a file named on the command line is a content-blocker list rather than a
    /// policy: by its content, as every command reads it (`InputKind`).
    func isContentBlockerList(_ path: String) -> Bool {
        InputKind.reading(of: PathNormalizer.opening(path, from: baseDirectory)) == .contentBlockerList
    }

    public func lintContentBlockerList(path: String) -> LintReport {
        let display = PathNormalizer.display(path)
        let file: SourceFile
        switch SourceReader.read(path: PathNormalizer.opening(path, from: baseDirectory), displayPath: display, expecting: .contentBlockerList) {
        case .problem(let diagnostic, let source):
            return LintReport(diagnostics: [diagnostic], sources: source.map { [display: $0] } ?? [:], lintedFiles: [display])
        case .file(let read):
            file = read
        }
        let (kept, parsed) = ContentBlockerImporter.parseList(file)
        var diagnostics = parsed
        if let kept {
            // A bare list is read for iOS 15 and later (what import targets at least), where WebKit's limit is 150,000.
            let limit = RuleListSplitter.maximumRules(for: .defaultTarget)
            if kept.count > limit {
                diagnostics.append(Diagnostic(ruleID: CompileCheck.listSize.id, severity: .error,
                                              message: "the list has \(kept.count) rules; WebKit refuses a list of more than \(limit)",
                                              location: file.location(at: file.startPosition), hint: "split it into two lists, which the app adds one after the other"))
            } else {
                diagnostics += ruleFindings(file, kept: kept)
            }
        }
        return LintReport(diagnostics: diagnostics, sources: [display: file], lintedFiles: [display])
    }

    /// The lint rules' findings on the list's rules, placed in the JSON.
    private func ruleFindings(_ file: SourceFile, kept: [(index: Int, node: JSONNode)]) -> [Diagnostic] {
        let imported = ContentBlockerImporter.importParsed(file, kept: kept, diagnostics: [], options: ContentBlockerImporter.Options())
        guard let text = imported.policyText else { return [] }
        let yamlPath = "<\(file.path) as a policy>"
        // The list's own settings (suppressions, a configuration's excludes) do not apply: it has
        // no comments, and it was named on purpose.
        var linter = self
        linter.configuration.inlineConfig = false
        let (report, policy) = linter.lintLoading(text: text, path: yamlPath)
        guard let policy, let yaml = report.sources[yamlPath] else { return [] }
        let rules = policy.contentRules
        let lines = yaml.text.split(separator: "\n", omittingEmptySubsequences: false)

        /// The JSON place for a place in the imported policy: the rule it is in, and there the
        /// member named by the nearest key at or above it.
        func place(_ location: SourceLocation?) -> SourceLocation? {
            guard let location, location.path == yamlPath else { return location }
            let position = location.start
            guard let rule = rules.lastIndex(where: { $0.location.start <= position }), rule < kept.count,
                  position <= rules[rule].location.range.end else { return nil }
            let node = kept[rule].node
            var line = position.line
            while line >= rules[rule].location.start.line, line - 1 < lines.count {
                if let key = Self.key(of: lines[line - 1]) {
                    let json = key == "action" ? node.member("action")?.member("type") : (node.member("trigger")?.member(key) ?? node.member("action")?.member(key))
                    return file.location((json ?? node).range)
                }
                line -= 1
            }
            return file.location(node.range)
        }

        return report.diagnostics.compactMap { diagnostic in
            guard let location = place(diagnostic.location) else { return nil }
            var moved = diagnostic
            moved.location = location
            moved.fix = nil
            moved.notes = diagnostic.notes.compactMap { note in
                guard note.location != nil else { return note }
                return place(note.location).map { Diagnostic.Note(note.message, at: $0) }
            }
            moved.message = moved.message.replacingOccurrences(of: yamlPath, with: file.path)
            return moved
        }
    }

    /// `url-filter` of `    url-filter: '…'` or `  - action: block`; nil for a list item.
    private static func key(of line: Substring) -> String? {
        var rest = line.drop { $0 == " " }
        if rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let key = rest[..<colon]
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        return String(key)
    }
}
