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

        /// The last rule that starts at or before `position` (rules are in file order): a
        /// binary search, as a list of 150,000 rules can have as many findings.
        @Sendable func ruleAt(_ position: SourcePosition) -> Int? {
            var low = 0, high = rules.count
            while low < high {
                let middle = (low + high) / 2
                if rules[middle].location.start <= position { low = middle + 1 } else { high = middle }
            }
            return low > 0 ? low - 1 : nil
        }

        /// "line N" in a message, where N is where a rule of the imported policy starts, names
        /// that rule's place in the list instead (the policy exists only in memory).
        @Sendable func placingLines(_ message: String) -> String {
            guard Self.containsBytes(message, "line ") else { return message }
            let bytes = Array(message.utf8), marker = Array("line ".utf8)
            var result: [UInt8] = []
            var index = 0
            while index < bytes.count {
                guard index + marker.count <= bytes.count, bytes[index..<(index + marker.count)].elementsEqual(marker) else {
                    result.append(bytes[index])
                    index += 1
                    continue
                }
                var end = index + marker.count
                while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
                if let line = Int(String(decoding: bytes[(index + marker.count)..<end], as: UTF8.self)),
                   let rule = ruleAt(SourcePosition(line: line, column: Int.max)), rule < kept.count, rules[rule].location.start.line == line {
                    let start = kept[rule].node.range.start
                    result += Array("line \(start.line), column \(start.column)".utf8)
                } else {
                    result += bytes[index..<end]
                }
                index = end
            }
            return String(decoding: result, as: UTF8.self)
        }

        /// The JSON place for a place in the imported policy: the rule it is in, and there the
        /// member named by the nearest key at or above it.
        @Sendable func place(_ location: SourceLocation?) -> SourceLocation? {
            guard let location, location.path == yamlPath else { return location }
            let position = location.start
            guard let rule = ruleAt(position), rule < kept.count, position <= rules[rule].location.range.end else { return nil }
            let node = kept[rule].node
            var line = position.line
            while line >= rules[rule].location.start.line, line <= yaml.lineCount {
                if let key = Self.key(of: Substring(yaml.line(line))) {
                    let json = key == "action" ? node.member("action")?.member("type") : (node.member("trigger")?.member(key) ?? node.member("action")?.member(key))
                    return file.location((json ?? node).range)
                }
                line -= 1
            }
            return file.location(node.range)
        }

        // Each finding on its own, on every core: a list can have 150,000.
        return report.diagnostics.parallelMap(minimumChunk: 512) { diagnostic -> Diagnostic? in
            guard let location = place(diagnostic.location) else { return nil }
            var moved = diagnostic
            moved.location = location
            moved.fix = nil
            moved.notes = diagnostic.notes.compactMap { note in
                guard note.location != nil else { return note }
                return place(note.location).map { Diagnostic.Note(note.message, at: $0) }
            }
            moved.message = placingLines(Self.containsBytes(moved.message, yamlPath) ? moved.message.replacingOccurrences(of: yamlPath, with: file.path) : moved.message)
            return moved
        }.compactMap { $0 }
    }

    /// `url-filter` of `    url-filter: '…'` or `  - action: block`; nil for a list item. Read
    /// as bytes: it runs for every finding of a list that may have 150,000.
    private static func key(of line: Substring) -> String? {
        var bytes = line.utf8.drop { $0 == 0x20 }
        if bytes.starts(with: [0x2D, 0x20]) { bytes = bytes.dropFirst(2).drop { $0 == 0x20 } }
        guard let colon = bytes.firstIndex(of: 0x3A) else { return nil }
        let key = bytes[..<colon]
        guard !key.isEmpty, key.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == 0x2D }) else { return nil }
        return String(decoding: key, as: UTF8.self)
    }

    /// Whether `text` holds `part`, compared as bytes (not through Foundation's search).
    static func containsBytes(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.utf8), needle = Array(part.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
