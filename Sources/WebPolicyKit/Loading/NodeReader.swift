import WebPolicyRuntime

/// The fields of one YAML mapping, by key, after the unknown keys were reported.
struct Fields {
    let node: YAMLNode
    /// How messages name this mapping: "a content rule", "the target".
    let context: String
    /// The mapping's pairs, and where the known keys are among them. Mappings in a policy are
    /// small: a linear search beats hashing, and indices spare copying the pairs.
    let pairs: [YAMLPair]
    let known: [(key: String, index: Int)]
    /// The known keys that unknown keys were taken for ("did you mean"): a missing required
    /// key that is one of them was misspelt, and the unknown-key error already says so.
    var suggested: [String] = []

    private func index(_ key: String) -> Int? {
        known.first { $0.key == key }?.index
    }

    func has(_ key: String) -> Bool { index(key) != nil }
    func value(_ key: String) -> YAMLNode? { index(key).map { pairs[$0].value } }
    func keyRange(_ key: String) -> SourceRange? { index(key).map { pairs[$0].key.range } }
}

/// Reads YAML nodes into typed values, recording a loader diagnostic for every problem and
/// carrying on, so that one run reports all of them.
struct NodeReader {
    let file: SourceFile
    private(set) var diagnostics: [Diagnostic] = []

    init(file: SourceFile) {
        self.file = file
    }

    func location(_ range: SourceRange) -> SourceLocation { file.location(range) }
    func location(_ node: YAMLNode) -> SourceLocation { file.location(node.range) }

    mutating func append(_ other: [Diagnostic]) {
        diagnostics += other
    }

    mutating func error(_ check: LoaderCheck, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = [], hint: String? = nil, fix: Fix? = nil) {
        diagnostics.append(Diagnostic(ruleID: check.id, severity: .error, message: message, location: file.location(range), notes: notes, hint: hint, fix: fix))
    }

    // MARK: Mappings

    /// Reads a mapping, reporting a wrong kind and every unknown key.
    mutating func fields(of node: YAMLNode, context: String, allowed: [String], allowsExtensions: Bool = false) -> Fields? {
        guard let pairs = node.mapping else {
            wrongKind(node, expected: "a mapping", what: context)
            return nil
        }
        var known: [(key: String, index: Int)] = []
        var suggested: [String] = []
        known.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            guard let key = pair.key.scalar?.value, pair.key.mapping == nil, pair.key.sequence == nil else {
                error(.wrongType, "keys in \(context) must be plain strings", at: pair.key.range)
                continue
            }
            if allowed.contains(key) {
                known.append((key, index))
            } else if allowsExtensions && key.hasPrefix(PolicyKeys.extensionPrefix) {
                continue
            } else {
                var message = "unknown key '\(key)' in \(context)"
                var fix: Fix?
                if let suggestion = Suggestions.closest(to: key, in: allowed) {
                    message += "; did you mean '\(suggestion)'?"
                    suggested.append(suggestion)
                    fix = renaming(key: key, to: suggestion, at: pair.key, among: allowed, in: pairs)
                }
                var notes = [Diagnostic.Note("allowed keys: \(Suggestions.list(allowed))")]
                if allowsExtensions { notes.append(Diagnostic.Note("keys starting with 'x-' are ignored and may hold shared anchors")) }
                error(.unknownKey, message, at: pair.key.range, notes: notes, fix: fix)
            }
        }
        return Fields(node: node, context: context, pairs: pairs, known: known, suggested: suggested)
    }

    /// A key one edit from exactly one allowed key, which the mapping does not have yet, is
    /// that key misspelt (`resouce-type`): certain enough to rename. Anything further, or with
    /// two candidates as close, keeps only its "did you mean".
    private func renaming(key: String, to suggestion: String, at node: YAMLNode, among allowed: [String], in pairs: [YAMLPair]) -> Fix? {
        guard Suggestions.editDistance(key, suggestion) == 1,
              allowed.filter({ Suggestions.editDistance(key, $0) <= 1 }).count == 1,
              !pairs.contains(where: { $0.key.scalar?.value == suggestion }),
              let edit = FixBuilder(files: [file.path: file]).replace(LocatedString(key, at: location(node)), with: suggestion) else { return nil }
        return Fix("rename '\(key)' to '\(suggestion)'", edits: [edit])
    }

    mutating func requireKey(_ key: String, in fields: Fields, hint: String? = nil) {
        guard !fields.has(key), !fields.suggested.contains(key) else { return }
        error(.missingKey, "\(fields.context) is missing the required key '\(key)'", at: SourceRange(at: fields.node.range.start), hint: hint)
    }

    /// At most one of `keys` (or, with `required`, exactly one).
    mutating func exclusive(_ keys: [String], in fields: Fields, required: Bool) {
        let present = keys.filter(fields.has)
        if present.count > 1, let second = fields.keyRange(present[1]), let first = fields.keyRange(present[0]) {
            error(.conflictingKeys, "'\(present[0])' and '\(present[1])' cannot both be set in \(fields.context)", at: second,
                  notes: [Diagnostic.Note("'\(present[0])' is set here", at: location(first))],
                  hint: "keep one of \(Suggestions.list(keys, quoted: true))")
        } else if present.isEmpty && required && !keys.contains(where: fields.suggested.contains) {
            error(.missingKey, "\(fields.context) needs one of \(Suggestions.list(keys, quoted: true))", at: SourceRange(at: fields.node.range.start))
        }
    }

    // MARK: Scalars

    /// A string; plain numbers and booleans are taken as written (`value: 12345` is "12345").
    mutating func string(_ key: String, in fields: Fields, required: Bool = false) -> LocatedString? {
        guard let node = fields.value(key) else {
            if required { requireKey(key, in: fields) }
            return nil
        }
        return string(node, what: "'\(key)'")
    }

    mutating func string(_ node: YAMLNode, what: String) -> LocatedString? {
        guard let scalar = node.scalar else {
            wrongKind(node, expected: "a string", what: what)
            return nil
        }
        if node.tag == nil, scalar.isNull {
            error(.wrongType, "\(what) has no value", at: node.range, hint: "write a value after the colon, or remove the key")
            return nil
        }
        return LocatedString(scalar.value, at: location(node), style: scalar.style)
    }

    mutating func bool(_ key: String, in fields: Fields) -> Located<Bool>? {
        guard let node = fields.value(key) else { return nil }
        guard let scalar = node.scalar else {
            wrongKind(node, expected: "true or false", what: "'\(key)'")
            return nil
        }
        switch scalar.resolved {
        case .bool(let value):
            return Located(value, at: location(node))
        case .string(let text) where scalar.style != .plain && (text == "true" || text == "false"):
            error(.invalidBoolean, "'\(key)' must be true or false, but got the quoted string \"\(text)\"", at: node.range,
                  hint: "remove the quotes: a quoted value is a string, not a boolean", fix: replacing(node, with: text, "write \(text) without quotes"))
        default:
            var hint = "only true and false are booleans here"
            var fix: Fix?
            if scalar.looksLikeOtherBoolean {
                let meaning = Self.yaml11Meaning(scalar.value)
                hint = "'\(scalar.value)' is a boolean only in YAML 1.1; webpolicy reads only true and false, so write \(meaning)"
                // What YAML 1.1 meant by the word is certain; a plain scalar's range is the word.
                if scalar.style == .plain { fix = replacing(node, with: meaning, "write \(meaning)") }
            }
            error(.invalidBoolean, "'\(key)' must be true or false, but got '\(scalar.value)'", at: node.range, hint: hint, fix: fix)
        }
        return nil
    }

    /// A fix that writes `text` in place of a scalar written on one line.
    private func replacing(_ node: YAMLNode, with text: String, _ description: String) -> Fix? {
        guard node.range.start.line == node.range.end.line else { return nil }
        return Fix(description, edits: [TextEdit(range: node.range, replacement: text)])
    }

    private static func yaml11Meaning(_ word: String) -> String {
        ["yes", "on", "y", "true"].contains(word.lowercased()) ? "true" : "false"
    }

    mutating func integer(_ key: String, in fields: Fields, minimum: Int? = nil, maximum: Int? = nil) -> Located<Int>? {
        guard let node = fields.value(key) else { return nil }
        guard let scalar = node.scalar, case .int(let value) = scalar.resolved else {
            wrongKind(node, expected: "an integer", what: "'\(key)'")
            return nil
        }
        if let minimum, value < minimum {
            error(.invalidValue, "'\(key)' must be \(minimum) or more, but got \(value)", at: node.range)
            return nil
        }
        if let maximum, value > maximum {
            error(.invalidValue, "'\(key)' must be \(maximum) or less, but got \(value)", at: node.range)
            return nil
        }
        return Located(value, at: location(node))
    }

    /// One value of a closed vocabulary.
    mutating func choice<E: RawRepresentable & CaseIterable>(_ key: String, in fields: Fields, as type: E.Type, caseInsensitive: Bool = false) -> Located<E>? where E.RawValue == String {
        guard let node = fields.value(key) else { return nil }
        return choice(node, what: "'\(key)'", as: type, caseInsensitive: caseInsensitive)
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, what: String, as type: E.Type, caseInsensitive: Bool = false) -> Located<E>? where E.RawValue == String {
        guard let text = string(node, what: what) else { return nil }
        let spelled = caseInsensitive ? text.value.lowercased() : text.value
        if let value = E(rawValue: spelled) { return Located(value, at: text.location) }
        let allowed = E.allCases.map(\.rawValue)
        var message = "\(what) must be one of \(Suggestions.list(allowed)), but got '\(text.value)'"
        // The value in another case (`Lax`) is certain: lowercase it.
        if E(rawValue: text.value.lowercased()) != nil {
            let lowercase = text.value.lowercased()
            message += "; did you mean '\(lowercase)'?"
            let fix = FixBuilder(files: [file.path: file]).replace(text, with: lowercase).map { Fix("write '\(lowercase)'", edits: [$0]) }
            error(.invalidValue, message, at: node.range, fix: fix)
            return nil
        }
        if let suggestion = Suggestions.closest(to: text.value, in: allowed) { message += "; did you mean '\(suggestion)'?" }
        error(.invalidValue, message, at: node.range)
        return nil
    }

    // MARK: Lists

    /// A list whose elements are read by `element`; elements that fail are reported and dropped.
    mutating func list<T>(_ key: String, in fields: Fields, element: (inout NodeReader, YAMLNode) -> T?) -> Located<[T]>? {
        guard let node = fields.value(key) else { return nil }
        return list(node, what: "'\(key)'", element: element)
    }

    mutating func list<T>(_ node: YAMLNode, what: String, element: (inout NodeReader, YAMLNode) -> T?) -> Located<[T]>? {
        guard let items = node.sequence else {
            wrongKind(node, expected: "a list", what: what)
            return nil
        }
        var values: [T] = []
        values.reserveCapacity(items.count)
        for item in items {
            if let value = element(&self, item) { values.append(value) }
        }
        return Located(values, at: location(node))
    }

    mutating func stringList(_ key: String, in fields: Fields) -> Located<[LocatedString]>? {
        list(key, in: fields) { reader, item in reader.string(item, what: "an entry of '\(key)'") }
    }

    mutating func choiceList<E: RawRepresentable & CaseIterable>(_ key: String, in fields: Fields, as type: E.Type, caseInsensitive: Bool = false) -> Located<[Located<E>]>? where E.RawValue == String {
        list(key, in: fields) { reader, item in reader.choice(item, what: "an entry of '\(key)'", as: type, caseInsensitive: caseInsensitive) }
    }

    // MARK: Kinds

    mutating func wrongKind(_ node: YAMLNode, expected: String, what: String) {
        let actual: String
        var hint: String?
        switch node.content {
        case .mapping: actual = "a mapping"
        case .sequence: actual = "a list"
        case .scalar(let scalar):
            let resolved = node.tag == nil ? scalar.resolved : .string(scalar.value)
            if resolved == .null {
                error(.wrongType, "\(what) has no value; expected \(expected)", at: node.range,
                      hint: expected == "a list" ? "write [] for an empty list, or remove the key" : "write a value after the colon, or remove the key")
                return
            }
            actual = resolved.kindName == "string" ? "the string '\(scalar.value)'" : "the \(resolved.kindName) \(scalar.value)"
            if expected == "a list" { hint = "write [\(scalar.value)] for a list of one, or one '- item' per line" }
        }
        error(.wrongType, "\(what) must be \(expected), but got \(actual)", at: node.range, hint: hint)
    }
}
