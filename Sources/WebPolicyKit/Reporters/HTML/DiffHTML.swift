import WebPolicyRuntime

extension TrafficDiff {
    /// `diff --format html` with traces: what changes for the requests, one group per kind of
    /// change (`allow → block`) with the entry that decided it before and after, each request
    /// a row, filterable by change and text.
    func html(old: String, new: String, limit: Int, data: String) -> String {
        let e = HTMLDocument.escape
        let verdict = changed == 0 ? "No request changes (\(scope))" : "\(changed) changed, \(unchanged) unchanged (\(scope))"
        var body = "<p><code>\(e(old))</code> → <code>\(e(new))</code></p>\n"
        body += "<section aria-labelledby=\"counts\">\n<h2 id=\"counts\">Counts</h2>\n<table id=\"diff-counts\">\n<caption>Requests replayed</caption>\n"
        body += "<thead><tr><th scope=\"col\">Outcome</th><th scope=\"col\">Requests</th></tr></thead>\n<tbody>\n"
        body += "<tr><th scope=\"row\">\(HTMLDocument.badge("changed"))</th><td class=\"number\" data-count=\"changed\">\(changed)</td></tr>\n"
        body += "<tr><th scope=\"row\">unchanged</th><td class=\"number\" data-count=\"unchanged\">\(unchanged)</td></tr>\n</tbody>\n</table>\n</section>\n"
        if !groups.isEmpty {
            let shownTotal = groups.reduce(0) { $0 + (limit > 0 ? min(limit, $1.changes.count) : $1.changes.count) }
            body += "<section aria-labelledby=\"changes\">\n<h2 id=\"changes\">What changes</h2>\n"
            body += HTMLDocument.filters(kinds: Array(Set(groups.map(\.change))).sorted(), kindLabel: "Change", noun: "requests", total: shownTotal) + "\n<div id=\"items\">\n"
            for (index, group) in groups.enumerated() {
                let shown = limit > 0 ? Array(group.changes.prefix(limit)) : group.changes
                body += "<section class=\"group\" aria-labelledby=\"group-\(index + 1)\">\n<h3 id=\"group-\(index + 1)\">\(e(group.change)) (\(group.changes.count) request\(group.changes.count == 1 ? "" : "s"))</h3>\n"
                body += "<p>Was: \(e(group.was))<br>Now: \(e(group.now))</p>\n<table>\n<caption>\(e(group.change))</caption>\n"
                body += "<thead><tr><th scope=\"col\">Request</th><th scope=\"col\">Type</th><th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead>\n<tbody>\n"
                for change in shown {
                    body += "<tr class=\"item\" data-kind=\"\(e(group.change))\"><td><code>\(e("\(change.trace):\(change.line)"))</code> <code>\(e(change.url))</code></td><td>\(e(change.type))</td>"
                    body += "<td>\(e(Self.side(change.old, change, against: change.new)))</td><td>\(e(Self.side(change.new, change, against: change.old)))</td></tr>\n"
                }
                body += "</tbody>\n</table>\n"
                if shown.count < group.changes.count { body += "<p>… and \(group.changes.count - shown.count) more (<code>webpolicy diff --format json</code> lists every one).</p>\n" }
                body += "</section>\n"
            }
            body += "</div>\n</section>\n"
        }
        return HTMLDocument.page(title: "webpolicy diff: \(verdict)", heading: "webpolicy diff", verdict: verdict, failed: changed > 0, body: body, data: data)
    }
}

extension PolicyComparison {
    /// `diff --format html` without traces: the policies' entries added, removed and changed,
    /// section by section, each with the fields that differ; filterable by what happened.
    func html(old: String, new: String, data: String) -> String {
        let e = HTMLDocument.escape
        let verdict = total.prefix(1).uppercased() + total.dropFirst()
        var body = "<p><code>\(e(old))</code> → <code>\(e(new))</code>: the policies compared (give traces to see what changes for requests)</p>\n"
        body += "<section aria-labelledby=\"counts\">\n<h2 id=\"counts\">Counts</h2>\n<table id=\"difference-counts\">\n<caption>Entries</caption>\n"
        body += "<thead><tr><th scope=\"col\">Change</th><th scope=\"col\">Entries</th></tr></thead>\n<tbody>\n"
        for (name, count) in [("added", added), ("removed", removed), ("changed", changed)] {
            body += "<tr><th scope=\"row\">\(e(name))</th><td class=\"number\" data-count=\"\(name)\">\(count)</td></tr>\n"
        }
        body += "</tbody>\n</table>\n</section>\n"
        if !differences.isEmpty {
            let actions = [Action.added, .removed, .changed].filter { action in differences.contains { $0.action == action } }.map(\.rawValue)
            body += "<section aria-labelledby=\"differences\">\n<h2 id=\"differences\">Differences</h2>\n"
            body += HTMLDocument.filters(kinds: actions, kindLabel: "Change", noun: "entries", total: differences.count) + "\n<div id=\"items\">\n"
            var sections: [(String, [Difference])] = []
            for difference in differences {
                if let index = sections.firstIndex(where: { $0.0 == difference.kind }) { sections[index].1.append(difference) } else { sections.append((difference.kind, [difference])) }
            }
            for (index, (kind, members)) in sections.enumerated() {
                body += "<section class=\"group\" aria-labelledby=\"kind-\(index + 1)\">\n<h3 id=\"kind-\(index + 1)\">\(e(kind))</h3>\n"
                for difference in members {
                    body += "<article class=\"item\" data-kind=\"\(difference.action.rawValue)\">\n<h4>\(e(difference.action.rawValue)) <code>\(e(difference.name))</code> <span class=\"muted\">\(e(Self.place(difference)))</span></h4>\n"
                    if !difference.fields.isEmpty {
                        body += "<table>\n<caption>Fields of \(e(difference.name))</caption>\n<thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead>\n<tbody>\n"
                        for field in difference.fields {
                            body += "<tr><th scope=\"row\"><code>\(e(field.name))</code></th><td><code>\(e(Self.value(field.old)))</code></td><td><code>\(e(Self.value(field.new)))</code></td></tr>\n"
                        }
                        body += "</tbody>\n</table>\n"
                    }
                    body += "</article>\n"
                }
                body += "</section>\n"
            }
            body += "</div>\n</section>\n"
        }
        return HTMLDocument.page(title: "webpolicy diff: \(verdict)", heading: "webpolicy diff", verdict: verdict, failed: false, body: body, data: data)
    }
}
