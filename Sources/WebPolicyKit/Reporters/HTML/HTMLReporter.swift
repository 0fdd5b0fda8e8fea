import WebPolicyRuntime

/// `--format html` for `lint` and `audit`: one page a reviewer reads top-down — the verdict,
/// the counts by severity and by rule (with the MASVS, MASWE, MASTG and CWE each rule names),
/// then the findings grouped by file, each with its source line and caret, hint, notes and
/// fix, filterable by severity and text; then every file read, clean ones included.
public enum HTMLReporter: Reporter {
    public static let identifier = "html"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        let e = HTMLDocument.escape
        let verdict = report.diagnostics.isEmpty
            ? "No problems in \(report.lintedFiles.count == 1 ? "1 file" : "\(report.lintedFiles.count) files")"
            : report.summary.prefix(1).uppercased() + report.summary.dropFirst()
        var body = ""

        body += "<section aria-labelledby=\"counts\">\n<h2 id=\"counts\">Counts</h2>\n"
        body += "<table id=\"severity-counts\">\n<caption>Findings by severity</caption>\n<thead><tr><th scope=\"col\">Severity</th><th scope=\"col\">Findings</th></tr></thead>\n<tbody>\n"
        for severity in [Severity.error, .warning, .info] {
            body += "<tr><th scope=\"row\">\(HTMLDocument.badge(severity.rawValue))</th><td class=\"number\" data-severity=\"\(severity.rawValue)\">\(report.count(severity))</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"

        var byRule: [String: Int] = [:]
        for diagnostic in report.diagnostics { byRule[diagnostic.ruleID, default: 0] += 1 }
        if !byRule.isEmpty {
            let described = Dictionary(options.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            body += "<table id=\"rule-counts\">\n<caption>Findings by rule</caption>\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">Findings</th><th scope=\"col\">Security reviews</th></tr></thead>\n<tbody>\n"
            for (rule, count) in byRule.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                let standards = described[rule]?.standards.identifiers.joined(separator: ", ") ?? ""
                body += "<tr><th scope=\"row\">\(ruleLink(rule, options: options))</th><td class=\"number\">\(count)</td><td>\(e(standards))</td></tr>\n"
            }
            body += "</tbody>\n</table>\n"
        }
        body += "</section>\n"

        if !report.diagnostics.isEmpty {
            body += "<section aria-labelledby=\"findings\">\n<h2 id=\"findings\">Findings</h2>\n"
            let present = [Severity.error, .warning, .info].filter { report.count($0) > 0 }.map(\.rawValue)
            body += HTMLDocument.filters(kinds: present, kindLabel: "Severity", noun: "findings", total: report.diagnostics.count) + "\n"
            body += "<div id=\"items\">\n"
            var byFile: [(String, [Diagnostic])] = []
            for diagnostic in report.diagnostics {
                if byFile.last?.0 == diagnostic.location.path { byFile[byFile.count - 1].1.append(diagnostic) } else { byFile.append((diagnostic.location.path, [diagnostic])) }
            }
            for (index, (path, diagnostics)) in byFile.enumerated() {
                body += "<section class=\"group\" aria-labelledby=\"file-\(index + 1)\">\n<h3 id=\"file-\(index + 1)\"><code>\(e(path))</code></h3>\n"
                for diagnostic in diagnostics { body += finding(diagnostic, sources: report.sources, options: options) }
                body += "</section>\n"
            }
            body += "</div>\n</section>\n"
        }

        let counts = Dictionary(report.diagnostics.map { ($0.location.path, 1) }, uniquingKeysWith: +)
        body += "<section aria-labelledby=\"files\">\n<h2 id=\"files\">Files</h2>\n<table>\n<caption>Every file read</caption>\n<thead><tr><th scope=\"col\">File</th><th scope=\"col\">Findings</th></tr></thead>\n<tbody>\n"
        for path in report.lintedFiles {
            body += "<tr><td><code>\(e(path))</code></td><td class=\"number\">\(counts[path] ?? 0)</td></tr>\n"
        }
        body += "</tbody>\n</table>\n</section>"

        return HTMLDocument.page(title: "\(options.title): \(verdict)", heading: options.title, verdict: verdict,
                                 failed: report.count(.error) > 0, body: body, data: JSONReporter.render(report, options: options))
    }

    private static func finding(_ diagnostic: Diagnostic, sources: [String: SourceFile], options: ReporterOptions) -> String {
        let e = HTMLDocument.escape
        let location = diagnostic.location
        var output = "<article class=\"item\" data-kind=\"\(diagnostic.severity.rawValue)\" data-rule=\"\(e(diagnostic.ruleID))\">\n"
        output += "<h4>\(HTMLDocument.badge(diagnostic.severity.rawValue)) \(ruleLink(diagnostic.ruleID, options: options)) <span class=\"muted\">at line \(location.start.line), column \(location.start.column)</span></h4>\n"
        output += "<p>\(e(diagnostic.message))</p>\n"
        if let file = sources[location.path] {
            let snippet = HumanReporter.snippet(file: file, range: location.range, style: .init(enabled: false), severity: diagnostic.severity)
            output += "<pre aria-label=\"\(e(location.path)) line \(location.start.line)\">\(e(snippet))</pre>\n"
        }
        if let hint = diagnostic.hint, hint != diagnostic.fix?.description { output += "<p><strong>Hint:</strong> \(e(hint))</p>\n" }
        if let fix = diagnostic.fix {
            output += "<p><strong>Fix:</strong> \(e(fix.description)) (<code>\(e(options.command(for: fix)))</code>)</p>\n"
        }
        if !diagnostic.notes.isEmpty {
            output += "<ul>\n" + diagnostic.notes.map { note in
                "<li>" + (note.location.map { "<code>\(e("\($0.path):\($0.start)"))</code>: " } ?? "") + e(note.message) + "</li>\n"
            }.joined() + "</ul>\n"
        }
        return output + "</article>\n"
    }

    private static func ruleLink(_ id: String, options: ReporterOptions) -> String {
        let e = HTMLDocument.escape
        let section = options.rules.contains(where: { $0.id == id }) ? id : LoaderCheck(rawValue: id) != nil ? "loader-checks" : nil
        guard let section else { return "<code>\(e(id))</code>" }
        return "<a href=\"\(e(WebPolicyVersion.documentation(ofRule: section)))\"><code>\(e(id))</code></a>"
    }
}
