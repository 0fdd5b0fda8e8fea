import WebPolicyRuntime

/// Inline suppressions, written as full-line YAML comments:
///
/// ```yaml
/// # webpolicy:disable-next-line cookie-via-header -- the SSO page reads it on the first request only
/// # webpolicy:disable interception-web-scheme -- enterprise build, reviewed in SEC-142
/// ```
///
/// `disable-next-line` hides the named rules' findings on the next line that is neither blank
/// nor a comment; `disable` hides them in the whole file. The reason after ` -- ` is
/// required: a suppression is a decision, and the next reader needs to know why. A
/// suppression with no reason or an unknown rule is an error and hides nothing; one that hides
/// nothing is a warning, so stale suppressions do not pile up (ESLint's
/// `--report-unused-disable-directives`, SwiftLint's `superfluous_disable_command`).
public enum SuppressionCheck: String, DocumentedCheck {
    case invalid = "suppression-invalid"
    case unused = "suppression-unused"


    public var summary: String {
        switch self {
        case .invalid: return "A `# webpolicy:` comment that is not `disable-next-line RULE-ID… -- reason` or `disable RULE-ID… -- reason`, names an unknown rule, or gives no reason; it hides nothing (error)."
        case .unused: return "A suppression that hides no finding: the problem was fixed, or the rule id or line is wrong (warning)."
        }
    }
}

struct Suppression {
    enum Scope: Equatable {
        /// The line it applies to.
        case line(Int)
        case file
    }

    var scope: Scope
    var ruleIDs: [String]
    var location: SourceLocation

    static let prefix = "webpolicy:"
    static let separator = " -- "

    /// The suppressions of a file, and what is wrong with the malformed ones. `ruleIDs` are the
    /// ids a suppression may name.
    static func parse(_ file: SourceFile, ruleIDs: [String], marker: String = "#") -> (suppressions: [Suppression], problems: [Diagnostic]) {
        var suppressions: [Suppression] = []
        var problems: [Diagnostic] = []
        // Most files have none: skip the line walk (a 10 MB policy has 400,000 lines).
        guard file.text.containsBytes(of: prefix, afterMarker: marker) else { return ([], []) }
        let markerScalar = marker.unicodeScalars.first!
        var pending: [Suppression] = []  // `disable-next-line`s waiting for their line
        for number in 1...max(file.lineCount, 1) {
            // Scalars first, Characters only on comment lines: grapheme breaking every line of
            // a file costs more than the rest of the walk.
            let scalars = file.line(number)
            guard let firstNonBlank = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { continue }
            let line = Substring(scalars)
            let trimmed = line[firstNonBlank...]
            guard scalars[firstNonBlank] == markerScalar, trimmed.hasPrefix(marker) else {
                for var suppression in pending {
                    suppression.scope = .line(number)
                    suppressions.append(suppression)
                }
                pending = []
                continue
            }
            let comment = trimmed.dropFirst(marker.count).drop { $0 == " " }
            guard comment.hasPrefix(prefix) else { continue }
            let column = line.unicodeScalars.count - trimmed.unicodeScalars.count + 1
            let location = file.location(SourceRange(start: SourcePosition(line: number, column: column),
                                                     end: SourcePosition(line: number, column: line.unicodeScalars.count + 1)))
            func problem(_ message: String, hint: String) {
                problems.append(Diagnostic(ruleID: SuppressionCheck.invalid.id, severity: .error, message: message, location: location, hint: hint))
            }
            let body = comment.dropFirst(prefix.count)
            let directive = String(body.prefix { $0 != " " && $0 != "\t" })
            let scope: Scope
            switch directive {
            case "disable-next-line": scope = .line(0)
            case "disable": scope = .file
            default:
                let suggestion = Suggestions.closest(to: directive, in: ["disable-next-line", "disable"]).map { "; did you mean '\($0)'?" } ?? ""
                problem("'webpolicy:\(directive)' is not a suppression\(suggestion)", hint: "write '\(marker) webpolicy:disable-next-line RULE-ID -- reason' or '\(marker) webpolicy:disable RULE-ID -- reason'")
                continue
            }
            let rest = body.dropFirst(directive.count)
            guard let split = rest.range(of: separator), rest[split.upperBound...].contains(where: { !$0.isWhitespace || $0.isNewline }) else {
                problem("this suppression gives no reason", hint: "add ' -- ' and why the finding is acceptable here")
                continue
            }
            let ids = rest[..<split.lowerBound].split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
            guard !ids.isEmpty else {
                problem("this suppression names no rule", hint: "name the rule ids to suppress, as printed in [brackets] after each finding")
                continue
            }
            if let unknown = ids.first(where: { !ruleIDs.contains($0) }) {
                let suggestion = Suggestions.closest(to: unknown, in: ruleIDs).map { "; did you mean '\($0)'?" } ?? ""
                problem("unknown rule '\(unknown)' in a suppression\(suggestion)", hint: "`webpolicy rules` lists the rule ids; loader checks cannot be suppressed")
                continue
            }
            let suppression = Suppression(scope: scope, ruleIDs: ids, location: location)
            if scope == .file { suppressions.append(suppression) } else { pending.append(suppression) }
        }
        // A `disable-next-line` at the end of the file has no line to hide: it is unused.
        suppressions += pending
        return (suppressions, problems)
    }

    /// Drops the findings the files' suppressions hide, and reports malformed and unused
    /// suppressions. `activeRuleIDs` are the rules that ran: a suppression for a rule turned
    /// off is not unused, only idle.
    static func apply(_ diagnostics: [Diagnostic], files: [SourceFile], ruleIDs: [String], activeRuleIDs: [String], marker: String = "#") -> [Diagnostic] {
        var kept = diagnostics
        var reports: [Diagnostic] = []
        for file in files {
            let (suppressions, problems) = parse(file, ruleIDs: ruleIDs, marker: marker)
            reports += problems
            for suppression in suppressions {
                var used = false
                kept.removeAll { diagnostic in
                    guard diagnostic.location.path == file.path, suppression.ruleIDs.contains(diagnostic.ruleID) else { return false }
                    if case .line(let line) = suppression.scope, diagnostic.location.range.start.line != line { return false }
                    used = true
                    return true
                }
                if !used, suppression.ruleIDs.contains(where: activeRuleIDs.contains) {
                    let what = suppression.scope == .file ? "in this file" : "on the next line"
                    reports.append(Diagnostic(ruleID: SuppressionCheck.unused.id, severity: .warning,
                                              message: "this suppression hides nothing: no \(suppression.ruleIDs.joined(separator: ", ")) finding \(what)",
                                              location: suppression.location, hint: "remove it"))
                }
            }
        }
        return kept + reports
    }
}


/// Suppressions written as comments in other languages: `// webpolicy:disable-next-line
/// RULE-ID -- reason` in Swift and Objective-C, for `webpolicy audit`.
public enum Suppressions {
    public static func applyComments(_ diagnostics: [Diagnostic], files: [SourceFile], marker: String, ruleIDs: [String], activeRuleIDs: [String]) -> [Diagnostic] {
        Suppression.apply(diagnostics, files: files, ruleIDs: ruleIDs, activeRuleIDs: activeRuleIDs, marker: marker)
    }
}
