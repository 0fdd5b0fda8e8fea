import WebPolicyRuntime

extension SimulationReport {
    /// `simulate --format html`: the verdict (passed, failed), the counts by outcome and by
    /// verdict, the failed expectations first with their reasons, then every request with its
    /// verdict and the entry that decided it, filterable by verdict and text — the first
    /// `limit` of them, a trace of millions being for `--format json` — and with `--coverage`,
    /// a picture of each policy's entries exercised and never exercised.
    public func html(coverage: [(policy: String, coverage: Coverage)], limit: Int = 5_000) -> String {
        let e = HTMLDocument.escape
        let summary = self.summary
        var verdict = "\(passed) passed, \(failed) failed"
        if unchecked > 0 { verdict += ", \(unchecked) without expectations" }
        verdict += " — \(summary.requests) request\(summary.requests == 1 ? "" : "s") in \(traces.count) trace\(traces.count == 1 ? "" : "s")"
        var body = "<section aria-labelledby=\"counts\">\n<h2 id=\"counts\">Counts</h2>\n"
        body += "<table id=\"outcome-counts\">\n<caption>Requests by outcome</caption>\n<thead><tr><th scope=\"col\">Outcome</th><th scope=\"col\">Requests</th></tr></thead>\n<tbody>\n"
        for (name, count) in [("passed", passed), ("failed", failed), ("unchecked", unchecked)] {
            body += "<tr><th scope=\"row\">\(HTMLDocument.badge(name))</th><td class=\"number\" data-outcome=\"\(name)\">\(count)</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        body += "<table id=\"verdict-counts\">\n<caption>Requests by verdict</caption>\n<thead><tr><th scope=\"col\">Verdict</th><th scope=\"col\">Requests</th></tr></thead>\n<tbody>\n"
        for (index, kind) in Verdict.allCases.enumerated() {
            body += "<tr><th scope=\"row\">\(HTMLDocument.badge(kind.rawValue))</th><td class=\"number\" data-verdict=\"\(kind.rawValue)\">\(summary.verdicts[index])</td></tr>\n"
        }
        body += "</tbody>\n</table>\n</section>\n"

        let failing = traces.flatMap { trace in trace.results.filter { !$0.passed }.map { (trace.path, $0) } }
        if !failing.isEmpty {
            body += "<section aria-labelledby=\"failed\">\n<h2 id=\"failed\">Failed expectations</h2>\n"
            for (path, result) in failing {
                body += "<article class=\"failure\" data-kind=\"failed\">\n<h3>\(HTMLDocument.badge("failed")) <code>\(e("\(path):\(result.entry.line)"))</code></h3>\n"
                body += "<p><code>\(e("\(result.entry.typeName) \(result.entry.shown)"))</code> is <strong>\(e(result.verdict.rawValue))</strong></p>\n<ul>\n"
                body += result.failures.map { "<li>\(e($0))</li>\n" }.joined() + "</ul>\n"
                body += "<p><strong>Why:</strong> \(e(result.reason))</p>\n</article>\n"
            }
            body += "</section>\n"
        }

        let shown = min(summary.requests, limit)
        body += "<section aria-labelledby=\"requests\">\n<h2 id=\"requests\">Requests</h2>\n"
        if shown < summary.requests {
            body += "<p>The first \(shown) of \(summary.requests) requests; <code>--format json</code> has every one.</p>\n"
        }
        let present = Verdict.allCases.enumerated().filter { summary.verdicts[$0.offset] > 0 }.map(\.element.rawValue)
        body += HTMLDocument.filters(kinds: present, kindLabel: "Verdict", noun: "requests", total: shown) + "\n<div id=\"items\">\n"
        var remaining = shown
        for (index, trace) in traces.enumerated() where remaining > 0 {
            let rows = trace.results.prefix(remaining)
            remaining -= rows.count
            body += "<section class=\"group\">\n<table>\n<caption id=\"trace-\(index + 1)\">\(e(trace.path)) (\(e(trace.subject)))</caption>\n"
            body += "<thead><tr><th scope=\"col\">Line</th><th scope=\"col\">Request</th><th scope=\"col\">Verdict</th><th scope=\"col\">Expected</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
            for result in rows {
                let expected = !result.hasExpectations ? "<span class=\"muted\">none</span>" : result.passed ? HTMLDocument.badge("passed") : HTMLDocument.badge("failed")
                body += "<tr class=\"item\" data-kind=\"\(result.verdict.rawValue)\"><td class=\"number\">\(result.entry.line)</td>"
                body += "<td><code>\(e("\(result.entry.typeName) \(result.entry.shown)"))</code></td><td>\(HTMLDocument.badge(result.verdict.rawValue))</td>"
                body += "<td>\(expected)</td><td>\(e(result.reason))</td></tr>\n"
            }
            body += "</tbody>\n</table>\n</section>\n"
        }
        body += "</div>\n</section>\n"

        if !coverage.isEmpty {
            body += "<section aria-labelledby=\"coverage\">\n<h2 id=\"coverage\">Coverage</h2>\n"
            for (index, (path, measured)) in coverage.enumerated() {
                body += CoverageHTML.section(policy: path, coverage: measured, number: index + 1)
            }
            body += "</section>\n"
        }

        // The summary object as `--format summary` prints it, inside: `{"summary": {…}}`.
        guard case .object(var data) = summary.json else { preconditionFailure("the summary is an object") }
        data.append(("shown", .int(shown)))
        data.append(("coverage", .array(coverage.map { $0.coverage.json(policy: $0.policy) })))
        return HTMLDocument.page(title: "webpolicy simulate: \(verdict)", heading: "webpolicy simulate", verdict: verdict,
                                 failed: failed > 0, body: body, data: JSONValue.object(data).serialized())
    }
}

/// Each policy's entries as a picture: a bar per kind of entry, the exercised part and the part
/// no request reached, with the numbers in words beside it (an image alone says nothing to a
/// screen reader), then the list of what was never exercised.
enum CoverageHTML {
    static func section(policy: String, coverage: Coverage, number: Int) -> String {
        let e = HTMLDocument.escape
        let missing = coverage.unexercised
        var byKind: [(kind: Coverage.Kind, total: Int, missed: Int)] = []
        for kind in Coverage.Kind.allCases {
            let total = coverage.items.filter { $0.kind == kind }.count
            guard total > 0 else { continue }
            byKind.append((kind, total, missing.filter { $0.kind == kind }.count))
        }
        var output = "<h3 id=\"coverage-\(number)\"><code>\(e(policy))</code>: \(String(format: "%.1f", coverage.percent))% of \(coverage.items.count) exercised</h3>\n"
        let rowHeight = 26, labelWidth = 230, barWidth = 420
        let height = max(byKind.count, 1) * rowHeight + 8
        output += "<svg role=\"img\" aria-labelledby=\"coverage-\(number)-title\" width=\"\(labelWidth + barWidth + 120)\" height=\"\(height)\" viewBox=\"0 0 \(labelWidth + barWidth + 120) \(height)\">\n"
        output += "<title id=\"coverage-\(number)-title\">Entries exercised by the traces, by kind, in \(e(policy))</title>\n"
        for (row, entry) in byKind.enumerated() {
            let y = 4 + row * rowHeight
            let exercisedWidth = barWidth * (entry.total - entry.missed) / entry.total
            output += "<text x=\"0\" y=\"\(y + 17)\" font-size=\"14\" fill=\"#1b1b1b\">\(e(entry.kind.rawValue))</text>\n"
            output += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(barWidth)\" height=\"18\" fill=\"#f3d9dc\" stroke=\"#a4001b\"/>\n"
            if exercisedWidth > 0 { output += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(exercisedWidth)\" height=\"18\" fill=\"#1f6f2a\"/>\n" }
            output += "<text x=\"\(labelWidth + barWidth + 8)\" y=\"\(y + 17)\" font-size=\"14\" fill=\"#1b1b1b\">\(entry.total - entry.missed) of \(entry.total)</text>\n"
        }
        output += "</svg>\n"
        output += "<table>\n<caption>Entries by kind</caption>\n<thead><tr><th scope=\"col\">Kind</th><th scope=\"col\">Exercised</th><th scope=\"col\">Never exercised</th></tr></thead>\n<tbody>\n"
        for entry in byKind {
            output += "<tr><th scope=\"row\">\(e(entry.kind.rawValue))</th><td class=\"number\">\(entry.total - entry.missed)</td><td class=\"number\">\(entry.missed)</td></tr>\n"
        }
        output += "</tbody>\n</table>\n"
        if !missing.isEmpty {
            output += "<p>Never exercised:</p>\n<ul>\n" + missing.map { item in
                "<li>\(e(item.kind.rawValue)) <code>\(e(item.name))</code> <span class=\"muted\">(\(e("\(item.location.path):\(item.location.start.line)")))</span></li>\n"
            }.joined() + "</ul>\n"
        }
        return output
    }
}
