import WebPolicyRuntime

/// `--format html` for `lint` and `audit`: one page a reviewer reads top-down — the verdict,
/// the counts by severity and by rule (with the MASVS, MASWE, MASTG and CWE each rule names),
/// then the findings, errors first, each with its source line and caret, hint, notes and fix
/// (the same finding in several files — one ATS key in eight Info.plists — once, with its
/// places), filterable by severity and text; then the command's own sections (the audit's
/// inventory), and the files read.
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
            for severity in [Severity.error, .warning, .info] where report.count(severity) > 0 {
                let heading = severity == .info ? "Info" : severity.rawValue.prefix(1).uppercased() + severity.rawValue.dropFirst() + "s"
                body += "<section class=\"group\" aria-labelledby=\"severity-\(severity.rawValue)\">\n<h3 id=\"severity-\(severity.rawValue)\">\(heading) (\(report.count(severity)))</h3>\n"
                for group in folded(report.diagnostics.filter { $0.severity == severity }) {
                    body += finding(group, sources: report.sources, options: options)
                }
                body += "</section>\n"
            }
            body += "</div>\n</section>\n"
        }

        for section in options.htmlSections { body += section.markup }

        // Every file with a finding; the clean ones listed while they are few (a policy
        // folder), counted when they are many (an app's thousand sources).
        let counts = Dictionary(report.diagnostics.map { ($0.location.path, 1) }, uniquingKeysWith: +)
        let withFindings = report.lintedFiles.filter { counts[$0] != nil } + counts.keys.filter { !report.lintedFiles.contains($0) }.sorted()
        let clean = report.lintedFiles.filter { counts[$0] == nil }
        let listed = clean.count <= 20 ? report.lintedFiles : withFindings
        body += "<section aria-labelledby=\"files\">\n<h2 id=\"files\">Files</h2>\n<table>\n<caption>\(clean.count <= 20 ? "Every file read" : "The files with findings")</caption>\n<thead><tr><th scope=\"col\">File</th><th scope=\"col\">Findings</th></tr></thead>\n<tbody>\n"
        for path in listed {
            body += "<tr><td><code>\(e(path))</code></td><td class=\"number\">\(counts[path] ?? 0)</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        if clean.count > 20 { body += "<p>and \(clean.count) more files read, none with a finding.</p>\n" }
        body += "</section>"

        return HTMLDocument.page(title: "\(options.title): \(verdict)", heading: options.title, verdict: verdict,
                                 failed: report.count(.error) > 0, body: body, data: JSONReporter.render(report, options: options))
    }

    /// Findings that say the same thing (rule, message, hint) in different places, as one, in
    /// the order of their rule and first place.
    static func folded(_ diagnostics: [Diagnostic]) -> [[Diagnostic]] {
        var groups: [[Diagnostic]] = []
        var index: [String: Int] = [:]
        for diagnostic in diagnostics {
            let key = diagnostic.ruleID + "\u{0}" + diagnostic.message + "\u{0}" + (diagnostic.hint ?? "")
            if let position = index[key] { groups[position].append(diagnostic) } else {
                index[key] = groups.count
                groups.append([diagnostic])
            }
        }
        return groups.sorted { left, right in
            if left[0].ruleID != right[0].ruleID { return left[0].ruleID < right[0].ruleID }
            return (left[0].location.path, left[0].location.start) < (right[0].location.path, right[0].location.start)
        }
    }

    /// "in 8 Info.plists", "in 3 places in 2 files".
    static func places(_ group: [Diagnostic]) -> String {
        let files = Set(group.map(\.location.path))
        let names = Set(group.map { $0.location.path.split(separator: "/").last.map(String.init) ?? "" })
        if names == ["Info.plist"], files.count == group.count { return "in \(group.count) Info.plists" }
        return files.count == group.count ? "in \(group.count) files" : "in \(group.count) places in \(files.count) file\(files.count == 1 ? "" : "s")"
    }

    private static func finding(_ group: [Diagnostic], sources: [String: SourceFile], options: ReporterOptions) -> String {
        let e = HTMLDocument.escape
        let diagnostic = group[0]
        let location = diagnostic.location
        var output = "<article class=\"item\" data-kind=\"\(diagnostic.severity.rawValue)\" data-rule=\"\(e(diagnostic.ruleID))\" data-count=\"\(group.count)\">\n"
        let place = group.count == 1 ? "\(e(location.path)), line \(location.start.line), column \(location.start.column)" : e(places(group))
        output += "<h4>\(HTMLDocument.badge(diagnostic.severity.rawValue)) \(ruleLink(diagnostic.ruleID, options: options)) <span class=\"muted\">\(place)</span></h4>\n"
        output += "<p>\(e(diagnostic.message))</p>\n"
        if let file = sources[location.path] {
            let snippet = HumanReporter.snippet(file: file, range: location.range, style: .init(enabled: false), severity: diagnostic.severity)
            output += "<pre aria-label=\"\(e(location.path)) line \(location.start.line)\">\(e(snippet))</pre>\n"
        }
        if group.count > 1 {
            output += "<ul class=\"places\">\n" + group.map { "<li><code>\(e("\($0.location.path):\($0.location.start)"))</code></li>\n" }.joined() + "</ul>\n"
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
