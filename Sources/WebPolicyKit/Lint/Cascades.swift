import WebPolicyRuntime

/// An entry with an error takes no part in the other rules' reasoning: a finding that is not
/// an error, placed on a value already reported as an error or resting on one (a note pointing
/// into it), is left out. One wrong `host: "*.de"` is a public-suffix error — not also a
/// duplicate of the legitimate host it covers, an apex to add, and a cookie's `secure` to drop;
/// an origin written as a URL is an error — not also an origin the view never shows. The
/// error names the one thing to fix; the rest was advice about a value that will change.
enum Cascades {
    static func removed(from diagnostics: [Diagnostic], errorsElsewhere: [Diagnostic] = []) -> [Diagnostic] {
        // Errors with a place of their own; an empty range (a key missing at a mapping's
        // start) marks no value.
        let broken = (diagnostics + errorsElsewhere).filter { $0.severity == .error && $0.location.range.start < $0.location.range.end }
        guard !broken.isEmpty else { return diagnostics }
        var byFile: [String: [SourceRange]] = [:]
        for error in broken { byFile[error.location.path, default: []].append(error.location.range) }
        func restsOnBrokenValue(_ location: SourceLocation) -> Bool {
            guard let ranges = byFile[location.path] else { return false }
            return ranges.contains { $0.start <= location.range.start && location.range.end <= $0.end }
        }
        return diagnostics.filter { diagnostic in
            guard diagnostic.severity != .error else { return true }
            if restsOnBrokenValue(diagnostic.location) { return false }
            return !diagnostic.notes.contains { note in note.location.map(restsOnBrokenValue) ?? false }
        }
    }
}
