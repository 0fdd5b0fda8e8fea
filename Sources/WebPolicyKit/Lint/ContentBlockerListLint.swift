import WebPolicyRuntime

/// `webpolicy lint LIST.json`: a bare WebKit content-blocker list — a vendor's, a downloaded
/// one — checked as WebKit reads it (the port of its parser: every error at the list's own
/// line and column, and what it ignores), against WebKit's rule limit, and by the lint rules:
/// its rules are decoded as a policy's content rules at their places in the JSON, so each
/// finding points at the list's own characters.
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
        let read = ContentBlockerImporter.read(file)
        var diagnostics = read.diagnostics
        if let kept = read.rules {
            // A bare list is read for iOS 15 and later (what import targets at least), where WebKit's limit is 150,000.
            let limit = RuleListSplitter.maximumRules(for: .defaultTarget)
            if kept.count > limit {
                diagnostics.append(Diagnostic(ruleID: CompileCheck.listSize.id, severity: .error,
                                              message: "the list has \(kept.count) rules; WebKit refuses a list of more than \(limit)",
                                              location: file.location(at: file.startPosition), hint: "split it into two lists, which the app adds one after the other"))
            } else {
                diagnostics += ruleFindings(file, kept: kept, matchingEverything: read.regexesMatchingEverything)
            }
        }
        return LintReport(diagnostics: diagnostics, sources: [display: file], lintedFiles: [display])
    }

    /// The lint rules' findings on the list's rules, in the JSON. The rules are decoded as a
    /// policy's `content-rules` straight from the list's nodes (`RuleConversion`), so every
    /// place a rule reports is already the list's own; what it says of the policy around them
    /// (its name, its other sections) concerns nothing in the list and is left out.
    private func ruleFindings(_ file: SourceFile, kept: [(index: Int, node: JSONNode)], matchingEverything: Set<SourceRange>) -> [Diagnostic] {
        let converted = ContentBlockerImporter.convert(file, kept: kept)
        let (document, decoded) = PolicyDecoder.decode(Self.policyNode(of: file, rules: converted.rules, target: converted.requiredTarget), file: file)
        let result = LoadResult(policy: Policy(documents: [document]), diagnostics: decoded, files: [file])
        // The list's own settings (suppressions, a configuration's excludes) do not apply: it has
        // no comments, and it was named on purpose.
        var linter = self
        linter.configuration.inlineConfig = false
        // WebKit's parser has parsed every regex of the list: lint reads what it learnt.
        let regexes = PolicyFacts.AcceptedRegexes(path: file.path, matchingEverything: matchingEverything)
        let findings = decoded + linter.check(result, acceptedRegexes: regexes)
        let starts = converted.rules.map(\.range.start), ends = converted.rules.map(\.range.end)

        /// Whether `location` is inside one of the list's rules (they are in file order): a
        /// binary search, as a list of 150,000 rules can have as many findings.
        func isInARule(_ location: SourceLocation?) -> Bool {
            guard let location, location.path == file.path else { return false }
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= location.start { low = middle + 1 } else { high = middle }
            }
            return low > 0 && location.start <= ends[low - 1]
        }

        return findings.compactMap { diagnostic in
            guard isInARule(diagnostic.location) else { return nil }
            var kept = diagnostic
            // A fix edits a policy's YAML; the list is JSON.
            kept.fix = nil
            kept.notes = diagnostic.notes.filter { $0.location == nil || isInARule($0.location) }
            return kept
        }
    }

    /// The policy a list is linted as: its rules as `content-rules`, under a header that is in
    /// no rule (a finding placed there is about the policy, not the list).
    private static func policyNode(of file: SourceFile, rules: [YAMLNode], target: OSVersion) -> YAMLNode {
        let nowhere = SourceRange(at: file.startPosition)
        func scalar(_ text: String, _ style: ScalarStyle = .doubleQuoted) -> YAMLNode {
            YAMLNode(content: .scalar(YAMLScalar(value: text, style: style)), range: nowhere)
        }
        func pair(_ key: String, _ value: YAMLNode) -> YAMLPair { YAMLPair(key: scalar(key, .plain), value: value) }
        return YAMLNode(content: .mapping([
            pair("webpolicy", scalar("1", .plain)),
            pair("name", scalar(ContentBlockerImporter.defaultName(for: file.path))),
            pair("target", YAMLNode(content: .mapping([pair("ios", scalar(target.description))]), range: nowhere)),
            pair("content-rules", YAMLNode(content: .sequence(rules), range: nowhere)),
        ]), range: nowhere)
    }
}
