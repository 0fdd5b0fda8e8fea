import WebPolicyRuntime

/// Turns the YAML tree of one policy file into a `PolicyDocument`, reporting every structural
/// problem it meets (unknown keys, wrong kinds, missing keys, bad enum values) and carrying on.
/// Value checks that go beyond structure — host syntax, url-filter regexes — are lint rules.
struct PolicyDecoder {
    /// The policy format versions this webpolicy reads.
    static let supportedVersions = [1]

    /// Shared with the sections, each decoded in its own folder (`Sections/`).
    var reader: NodeReader
    /// The entries the last decode of this file made, by their text (`EntrySourceKey`).
    private let memo: LintMemo?

    init(file: SourceFile, memo: LintMemo? = nil) {
        reader = NodeReader(file: file)
        self.memo = memo
    }

    static func decode(_ root: YAMLNode, file: SourceFile, memo: LintMemo? = nil) -> (document: PolicyDocument, diagnostics: [Diagnostic]) {
        var decoder = PolicyDecoder(file: file, memo: memo)
        let document = decoder.decodeDocument(root)
        return (document, decoder.reader.diagnostics)
    }

    private mutating func decodeDocument(_ root: YAMLNode) -> PolicyDocument {
        var document = PolicyDocument(file: reader.file)
        if root.sequence != nil, InputKind.of(bytes: Array(reader.file.text.utf8.prefix(64))) == .contentBlockerList {
            reader.error(.wrongType, "this file is a JSON array — a WebKit content-blocker list — not a policy", at: root.range,
                         hint: "'webpolicy import' turns a list into a policy; lint reads it as it is, and simulate and verify take it with --content-rules")
            return document
        }
        guard let fields = reader.fields(of: root, context: "the policy", allowed: PolicyKeys.topLevel, allowsExtensions: true) else {
            return document
        }
        document.version = decodeVersion(fields)
        document.name = reader.string("name", in: fields, required: true)
        document.description = reader.string("description", in: fields)
        if let node = fields.value("target") { document.target = decodeTarget(node) }
        document.includes = reader.stringList("include", in: fields)?.value ?? []
        for section in Sections.all where fields.has(section.key) {
            section.decode(fields, into: &document, with: &self)
        }
        return document
    }

    /// Decodes the entries of a section. Entries are independent, so each gets its own decoder,
    /// on all cores for big sections; values and diagnostics are merged back in entry order.
    mutating func section<T: Sendable>(_ key: String, in fields: Fields, _ decode: @escaping @Sendable (inout PolicyDecoder, YAMLNode) -> T?) -> [T] {
        guard let node = fields.value(key) else { return [] }
        guard let items = node.sequence else {
            reader.wrongKind(node, expected: "a list", what: "'\(key)'")
            return []
        }
        let file = reader.file
        guard let memo else {
            let decoded = items.parallelMap { item in
                var decoder = PolicyDecoder(file: file)
                let value = decode(&decoder, item)
                return (value: value, diagnostics: decoder.reader.diagnostics)
            }
            for entry in decoded { reader.append(entry.diagnostics) }
            return decoded.compactMap(\.value)
        }
        // An editor's keystroke changes one entry of thousands: the others are taken back,
        // moved when lines were added or removed above them.
        let keys = EntrySourceKey.keys(of: items, in: file)
        let decoded = memo.table("\(key) entries of \(file.path)", of: EntrySourceKey.self, DecodedEntry<T>.self).values(
            for: keys,
            reusing: { index, known in
                guard keys[index]?.matches(known.text, in: file) == true else { return nil }
                let line = items[index].range.start.line
                if known.line == line { return (known, false) }
                guard let value = known.value else { return nil }
                guard let moved = (value as? any LineMovable)?.moved(byLines: line - known.line) as? T else { return nil }
                return (DecodedEntry(value: moved, diagnostics: [], line: line, text: known.text), true)
            },
            computing: { index in
                var decoder = PolicyDecoder(file: file)
                let value = decode(&decoder, items[index])
                // An entry with findings is decoded afresh each time: a finding's fix reads the file.
                let diagnostics = decoder.reader.diagnostics
                let kept = diagnostics.isEmpty && keys[index] != nil
                return (DecodedEntry(value: value, diagnostics: diagnostics, line: items[index].range.start.line,
                                     text: kept ? keys[index]?.text(in: file) ?? [] : []), kept)
            })
        for entry in decoded { reader.append(entry.diagnostics) }
        return decoded.compactMap(\.value)
    }

    private mutating func decodeVersion(_ fields: Fields) -> Located<Int>? {
        guard let node = fields.value("webpolicy") else {
            reader.error(.missingKey, "the policy is missing the format version 'webpolicy: 1'", at: SourceRange(at: fields.node.range.start),
                         hint: "start the file with 'webpolicy: 1'")
            return nil
        }
        guard let scalar = node.scalar, case .int(let version) = scalar.resolved else {
            reader.error(.unsupportedVersion, "'webpolicy' must be the format version number 1, but got '\(node.scalar?.value ?? "a collection")'",
                         at: node.range, hint: "write 'webpolicy: 1' without quotes")
            return nil
        }
        guard Self.supportedVersions.contains(version) else {
            reader.error(.unsupportedVersion, "unsupported policy format version \(version); this webpolicy reads version \(Suggestions.list(Self.supportedVersions.map(String.init)))",
                         at: node.range, hint: version > 1 ? "the policy was written for a newer webpolicy: upgrade it" : "write 'webpolicy: 1'")
            return nil
        }
        return Located(version, at: reader.location(node))
    }

    private mutating func decodeTarget(_ node: YAMLNode) -> Target? {
        guard let fields = reader.fields(of: node, context: "the target", allowed: PolicyKeys.target) else { return nil }
        var target = Target(location: reader.location(node))
        if let ios = reader.string("ios", in: fields) {
            if let version = OSVersion(parsing: ios.value) {
                if version < OSVersion.minimumSupported {
                    reader.error(.invalidValue, "'ios' must be \(OSVersion.minimumSupported) or later, but got \(ios.value)", at: ios.location.range,
                                 hint: "WKWebView content rule lists (WKContentRuleListStore) arrived in iOS 11")
                } else {
                    target.ios = Located(version, at: ios.location)
                }
            } else {
                reader.error(.invalidValue, "'ios' must be a version such as \"16\" or \"16.4\", but got '\(ios.value)'", at: ios.location.range)
            }
        }
        target.distribution = reader.choice("distribution", in: fields, as: Distribution.self)
        return target
    }
}

/// A section entry as the decoder's memo holds it: what decoding it gave, and the line it
/// started on then.
struct DecodedEntry<T: Sendable>: Sendable {
    var value: T?
    var diagnostics: [Diagnostic]
    var line: Int
    /// Its text (`EntrySourceKey`), which a hit compares with the text at the key's place.
    var text: [UInt8]
}
