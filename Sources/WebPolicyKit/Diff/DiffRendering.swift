import Foundation
import WebPolicyRuntime

/// How `webpolicy diff` shows its findings: `human` for a terminal, `json` for tools,
/// `markdown` for a pull-request comment or `$GITHUB_STEP_SUMMARY`, `html` for a reviewer's
/// page. Pure functions of the diff; `limit` caps the requests listed per group (0: all).
public enum DiffFormat: String, CaseIterable, Sendable {
    case human, json, markdown, html
}

extension TrafficDiff {
    public func rendered(_ format: DiffFormat, old: String, new: String, limit: Int) -> String {
        switch format {
        case .human: return human(old: old, new: new, limit: limit)
        case .json: return json(old: old, new: new, limit: limit).serialized(pretty: true) + "\n"
        case .markdown: return markdown(old: old, new: new, limit: limit)
        case .html: return html(old: old, new: new, limit: limit, data: json(old: old, new: new, limit: limit).serialized(pretty: true))
        }
    }

    private var requestCount: Int { changed + unchanged }
    var scope: String { "\(traces.count) \(traces.count == 1 ? "trace" : "traces") (\(Plural.count(requestCount, "request")))" }

    private func human(old: String, new: String, limit: Int) -> String {
        var out = "webpolicy diff: \(old) → \(new), replayed over \(scope)\n"
        for group in groups {
            out += "\n\(group.change) (\(Plural.count(group.changes.count, "request")))\n"
            out += "  was: \(group.was)\n  now: \(group.now)\n"
            let shown = limit > 0 ? Array(group.changes.prefix(limit)) : group.changes
            for change in shown {
                out += "    \(change.trace):\(change.line)  \(change.type) \(change.url)  \(Self.side(change.old, change, against: change.new)) → \(Self.side(change.new, change, against: change.old))\n"
            }
            if shown.count < group.changes.count { out += "    … and \(group.changes.count - shown.count) more\n" }
        }
        out += "\n\(changed) changed, \(unchanged) unchanged\n"
        return out
    }

    private func json(old: String, new: String, limit: Int) -> JSONValue {
        func outcome(_ outcome: Outcome) -> JSONValue {
            .object([("verdict", .string(outcome.verdict.rawValue)), ("finalURL", .string(outcome.finalURL)),
                     ("cookies", .array(outcome.cookies.map { .string($0) })), ("hiddenSelectors", .array(outcome.hiddenSelectors.map { .string($0) }))])
        }
        return .object([
            ("old", .string(old)), ("new", .string(new)),
            ("traces", .array(traces.map { .string($0) })),
            ("changed", .int(changed)), ("unchanged", .int(unchanged)),
            ("groups", .array(groups.map { group in
                let shown = limit > 0 ? Array(group.changes.prefix(limit)) : group.changes
                return .object([
                    ("change", .string(group.change)), ("was", .string(group.was)), ("now", .string(group.now)),
                    ("count", .int(group.changes.count)),
                    ("requests", .array(shown.map { change in
                        .object([("trace", .string(change.trace)), ("line", .int(change.line)), ("url", .string(change.url)), ("type", .string(change.type)),
                                 ("old", outcome(change.old)), ("new", outcome(change.new))])
                    })),
                ])
            })),
        ])
    }

    private func markdown(old: String, new: String, limit: Int) -> String {
        var out = "### webpolicy diff\n\n\(Markdown.code(old)) → \(Markdown.code(new)), replayed over \(scope): "
        out += changed == 0 ? "no request changes.\n" : "**\(changed) changed**, \(unchanged) unchanged.\n"
        for group in groups {
            out += "\n#### \(Markdown.text(group.change)) (\(Plural.count(group.changes.count, "request")))\n\n"
            out += "- was: \(Markdown.text(group.was))\n- now: \(Markdown.text(group.now))\n\n"
            out += "| Request | Type | Before | After |\n| --- | --- | --- | --- |\n"
            let shown = limit > 0 ? Array(group.changes.prefix(limit)) : group.changes
            for change in shown {
                out += "| \(Markdown.code("\(change.trace):\(change.line)")) \(Markdown.code(change.url)) | \(change.type) | \(Markdown.text(Self.side(change.old, change, against: change.new))) | \(Markdown.text(Self.side(change.new, change, against: change.old))) |\n"
            }
            if shown.count < group.changes.count { out += "\n… and \(group.changes.count - shown.count) more (the full list: `webpolicy diff --format human`).\n" }
        }
        return out
    }

    /// One side of a changed request: its verdict, and the final URL, cookies and hidden
    /// selectors where they differ from the other side.
    static func side(_ outcome: Outcome, _ change: Change, against other: Outcome) -> String {
        var text = outcome.verdict.rawValue
        if outcome.finalURL != other.finalURL && outcome.finalURL != change.url { text += " to \(outcome.finalURL)" }
        if outcome.cookies != other.cookies { text += outcome.cookies.isEmpty ? ", no cookies" : ", cookies " + outcome.cookies.joined(separator: ",") }
        if outcome.hiddenSelectors != other.hiddenSelectors { text += outcome.hiddenSelectors.isEmpty ? ", hides nothing" : ", hides " + outcome.hiddenSelectors.map { "'\($0)'" }.joined(separator: ", ") }
        return text
    }
}

extension PolicyComparison {
    public func rendered(_ format: DiffFormat, old: String, new: String) -> String {
        switch format {
        case .human: return human(old: old, new: new)
        case .json: return json(old: old, new: new).serialized(pretty: true) + "\n"
        case .markdown: return markdown(old: old, new: new)
        case .html: return html(old: old, new: new, data: json(old: old, new: new).serialized(pretty: true))
        }
    }

    var total: String {
        differences.isEmpty ? "no changes" : "\(Plural.count(differences.count, "change")): \(added) added, \(removed) removed, \(changed) changed"
    }

    static func place(_ difference: Difference) -> String {
        switch (difference.oldLocation, difference.newLocation) {
        case (let old?, let new?): return "\(old.described) → \(new.described)"
        case (let old?, nil): return old.described
        case (nil, let new?): return new.described
        case (nil, nil): return ""
        }
    }

    static func value(_ text: String?) -> String { text.map { "'\($0)'" } ?? "(none)" }

    private func human(old: String, new: String) -> String {
        var out = "webpolicy diff: \(old) → \(new), the policies compared (give traces to see what changes for requests)\n\n"
        for difference in differences {
            out += "\(difference.action.rawValue) \(difference.kind) \(difference.name) (\(Self.place(difference)))\n"
            if !difference.fields.isEmpty {
                for field in difference.fields { out += "    \(field.name): \(Self.value(field.old)) → \(Self.value(field.new))\n" }
            }
        }
        out += (differences.isEmpty ? "" : "\n") + total + "\n"
        return out
    }

    private func json(old: String, new: String) -> JSONValue {
        func location(_ location: SourceLocation?) -> JSONValue {
            guard let location else { return .null }
            return .object([("file", .string(location.path)), ("line", .int(location.start.line)), ("column", .int(location.start.column))])
        }
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            ("old", .string(old)), ("new", .string(new)),
            ("added", .int(added)), ("removed", .int(removed)), ("changed", .int(changed)),
            ("differences", .array(differences.map { difference in
                .object([
                    ("action", .string(difference.action.rawValue)), ("kind", .string(difference.kind)), ("name", .string(difference.name)),
                    ("old", location(difference.oldLocation)), ("new", location(difference.newLocation)),
                    ("fields", .array(difference.fields.map { .object([("name", .string($0.name)), ("old", text($0.old)), ("new", text($0.new))]) })),
                ])
            })),
        ])
    }

    private func markdown(old: String, new: String) -> String {
        var out = "### webpolicy diff\n\n\(Markdown.code(old)) → \(Markdown.code(new)), the policies compared: \(total).\n"
        if !differences.isEmpty { out += "\n" }
        for difference in differences {
            out += "- **\(difference.action.rawValue)** \(Markdown.text("\(difference.kind) \(difference.name)")) (\(Markdown.code(Self.place(difference))))\n"
            if !difference.fields.isEmpty {
                for field in difference.fields { out += "  - \(Markdown.code(field.name)): \(Markdown.code(Self.value(field.old))) → \(Markdown.code(Self.value(field.new)))\n" }
            }
        }
        return out
    }
}

/// GitHub-flavoured Markdown, escaped so that a policy's text never turns into markup.
enum Markdown {
    /// Plain text: characters that start markup, and table pipes, are escaped.
    static func text(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>|#~".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A code span: a fence longer than any run of backticks inside; pipes escaped for tables.
    static func code(_ text: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let body = text.replacingOccurrences(of: "|", with: "\\|")
        let padded = body.hasPrefix("`") || body.hasSuffix("`") ? " \(body) " : body
        return fence + padded + fence
    }
}

enum Plural {
    static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
