import CYaml  // libyaml, as bundled by Yams; see docs/decisions.md ("YAML through libyaml's events").
import WebPolicyRuntime

/// Builds a `YAMLNode` tree from libyaml's event stream, keeping every node's range, scalar
/// style and tag, and reporting — without stopping — duplicate keys, unknown aliases, tags
/// webpolicy does not understand and extra documents. Aliases are expanded under a budget so
/// that an alias bomb ("billion laughs") is an error, not a hang; nesting is capped so that no
/// later recursive walk can run out of stack. The composer itself never recurses.
struct YAMLComposer {
    /// The deepest nesting a policy file may have; real policies need about eight levels.
    static let maximumDepth = 256
    /// Nodes that aliases may add to a document beyond its own size. Shared anchors in a big
    /// policy stay far below; each level of a "billion laughs" document multiplies past it.
    static func aliasExpansionBudget(forEventCount events: Int) -> Int {
        max(100_000, events * 4)
    }

    private let file: SourceFile
    /// Characters in the file: a mark at or past this is at its end.
    private let characterCount: Int
    private var diagnostics: [Diagnostic] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var stack: [Frame] = []
    /// The finished children of every open collection, innermost last (a mapping's as key,
    /// value, key, …): one array for the whole document, so a collection's own array is
    /// allocated once, at its exact size, when it closes — not grown an append at a time.
    private var children: [YAMLNode] = []
    private var root: YAMLNode?
    private var rootSize = 0
    private var aliasExpansion = 0
    private var reportedExpansionLimit = false
    private var sawAliasOrDirective = false

    private init(file: SourceFile) {
        self.file = file
        characterCount = SourceFile.scalarCount(file.text)
    }

    /// Composes the first (and only) document of `file`.
    static func compose(_ file: SourceFile) -> (root: YAMLNode?, diagnostics: [Diagnostic]) {
        let composed = composing(file)
        return (composed.root, composed.diagnostics)
    }

    /// A composed document, and whether its nodes mean what their own text says.
    struct Composed {
        var root: YAMLNode?
        var diagnostics: [Diagnostic]
        /// No alias (which copies a node written elsewhere, ranges and all) and no directive
        /// (`%TAG` gives a tag another meaning): a node's text and place then decide it.
        var isContextFree: Bool
    }

    static func composing(_ file: SourceFile) -> Composed {
        var composer = YAMLComposer(file: file)
        composer.run()
        // After an alias bomb the tree is mutilated; decoding it would only add noise.
        return Composed(root: composer.reportedExpansionLimit ? nil : composer.root, diagnostics: composer.diagnostics,
                        isContextFree: !composer.sawAliasOrDirective)
    }

    /// An open sequence or mapping; its children are `children[firstChild...]`.
    private struct Frame {
        var isMapping: Bool
        var firstChild: Int
        var start: SourcePosition
        var tag: String?
        var anchor: String?
        var size = 1
        /// The keys of a large mapping, for the duplicate check; small mappings are searched linearly.
        var keyIndex: [String: SourceRange]?
    }

    // MARK: - The event loop

    private mutating func run() {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var bytes = Array(file.text.utf8)
        if bytes.isEmpty { bytes = [0x0A] }  // libyaml needs a buffer; an empty file is handled by the caller.
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var documents = 0
            var eventCount = 0
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    reportParserError(parser)
                    return
                }
                defer { yaml_event_delete(&event) }
                eventCount += 1
                switch event.type {
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                    let directives = event.data.document_start
                    if directives.version_directive != nil || directives.tag_directives.start != directives.tag_directives.end { sawAliasOrDirective = true }
                    if documents > 1 {
                        error(
                            "yaml-multiple-documents",
                            "a policy file holds one YAML document, but a second one starts here",
                            at: SourceRange(at: position(event.start_mark)),
                            hint: "split the documents into separate files and list them under `include:`"
                        )
                        return
                    }
                case YAML_SCALAR_EVENT:
                    addScalar(event)
                case YAML_SEQUENCE_START_EVENT:
                    guard push(isMapping: false, event, anchor: event.data.sequence_start.anchor,
                               tag: event.data.sequence_start.implicit == 0 ? event.data.sequence_start.tag : nil) else { return }
                case YAML_MAPPING_START_EVENT:
                    guard push(isMapping: true, event, anchor: event.data.mapping_start.anchor,
                               tag: event.data.mapping_start.implicit == 0 ? event.data.mapping_start.tag : nil) else { return }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    pop(end: event.end_mark)
                case YAML_ALIAS_EVENT:
                    addAlias(event, eventCount: eventCount)
                case YAML_STREAM_END_EVENT:
                    return
                default:
                    break
                }
            }
        }
    }

    // MARK: - Nodes

    private mutating func addScalar(_ event: yaml_event_t) {
        let data = event.data.scalar
        let value = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self) } ?? ""
        let style: ScalarStyle
        switch data.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        let range = SourceRange(start: position(event.start_mark), end: endPosition(event.end_mark, after: position(event.start_mark)))
        let tag = string(data.tag)
        checkTag(tag, at: range, kind: "scalar")
        let node = YAMLNode(content: .scalar(YAMLScalar(value: value, style: style)), range: range, tag: tag)
        if let anchor = string(data.anchor) { anchors[anchor] = (node, 1) }
        attach(node, size: 1)
    }

    private mutating func push(isMapping: Bool, _ event: yaml_event_t, anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?) -> Bool {
        if stack.count >= Self.maximumDepth {
            error(
                "yaml-limits",
                "the document nests deeper than \(Self.maximumDepth) levels",
                at: SourceRange(at: position(event.start_mark)),
                hint: "a policy needs only a few levels; this looks like generated or hostile input"
            )
            return false
        }
        let start = position(event.start_mark)
        let tagName = string(tag)
        checkTag(tagName, at: SourceRange(at: start), kind: isMapping ? "mapping" : "sequence")
        stack.append(Frame(isMapping: isMapping, firstChild: children.count, start: start, tag: tagName, anchor: string(anchor)))
        return true
    }

    private mutating func pop(end endMark: yaml_mark_t) {
        guard let frame = stack.popLast() else { return }
        let node: YAMLNode
        do {  // `own` ends here: alive at the removal below, it would make that copy `children`
            let own = children[frame.firstChild...]
            // An empty collection (`[]`, `{}`) ends where its closing bracket does.
            let end = own.last?.range.end ?? endPosition(endMark, after: frame.start)
            if frame.isMapping {
                // libyaml gives every key a value (an empty scalar if none is written).
                let pairs = (0..<own.count / 2).map { YAMLPair(key: own[own.startIndex + 2 * $0], value: own[own.startIndex + 2 * $0 + 1]) }
                node = YAMLNode(content: .mapping(mergeKeys(pairs)), range: SourceRange(start: frame.start, end: end), tag: frame.tag)
            } else {
                node = YAMLNode(content: .sequence(Array(own)), range: SourceRange(start: frame.start, end: end), tag: frame.tag)
            }
        }
        children.removeSubrange(frame.firstChild...)
        if let anchor = frame.anchor { anchors[anchor] = (node, frame.size) }
        attach(node, size: frame.size)
    }

    private mutating func addAlias(_ event: yaml_event_t, eventCount: Int) {
        sawAliasOrDirective = true
        let range = SourceRange(start: position(event.start_mark), end: endPosition(event.end_mark, after: position(event.start_mark)))
        let name = string(event.data.alias.anchor) ?? ""
        guard let anchored = anchors[name] else {
            error("yaml-syntax", "the alias '*\(name)' refers to no anchor defined before it", at: range,
                  hint: "define '&\(name)' on a node above this line")
            attach(YAMLNode(content: .scalar(YAMLScalar(value: "", style: .plain)), range: range), size: 1)
            return
        }
        aliasExpansion += anchored.size
        if aliasExpansion > Self.aliasExpansionBudget(forEventCount: eventCount) {
            if !reportedExpansionLimit {
                reportedExpansionLimit = true
                error(
                    "yaml-limits",
                    "aliases expand this document to more than \(Self.aliasExpansionBudget(forEventCount: eventCount)) nodes (an alias bomb?)",
                    at: range,
                    hint: "aliases may share values, not multiply them; expand the document by hand if this is intended"
                )
            }
            attach(YAMLNode(content: .scalar(YAMLScalar(value: "", style: .plain)), range: range), size: 1)
            return
        }
        // The copy keeps the anchor's ranges: problems inside it are where they were written.
        attach(anchored.node, size: anchored.size)
    }

    private mutating func attach(_ node: YAMLNode, size: Int) {
        guard !stack.isEmpty else {
            root = node
            rootSize = size
            return
        }
        let top = stack.count - 1
        stack[top].size = stack[top].size &+ size
        let first = stack[top].firstChild
        // A key waits on the stack for its value; a mapping's children are pairs.
        guard stack[top].isMapping, (children.count - first) % 2 == 1 else {
            children.append(node)
            return
        }
        let key = children[children.count - 1]
        let name = key.scalar?.value
        if let name, name != "<<", let earlier = Self.firstKey(named: name, in: children[first..<(children.count - 1)], index: &stack[top].keyIndex) {
            children.removeLast()
            error("yaml-duplicate-key", "the key '\(name)' appears twice in this mapping; the second one is ignored",
                  at: key.range, notes: [Diagnostic.Note("first defined here", at: file.location(earlier))])
        } else {
            if let name, stack[top].keyIndex != nil { stack[top].keyIndex?[name] = key.range }
            children.append(node)
        }
    }

    /// Where `name` is already a key among a mapping's finished `pairs` (key, value, key, …).
    /// Past 16 keys an index takes over from the scan. Static: an instance method called while
    /// `stack` is borrowed inout would copy the whole composer, and with it the stack, on every key.
    private static func firstKey(named name: String, in pairs: ArraySlice<YAMLNode>, index: inout [String: SourceRange]?) -> SourceRange? {
        let keys = stride(from: pairs.startIndex, to: pairs.endIndex, by: 2)
        if index == nil && pairs.count > 32 {
            var built: [String: SourceRange] = [:]
            for position in keys.reversed() { if let key = pairs[position].scalar?.value { built[key] = pairs[position].range } }
            index = built
        }
        if let index { return index[name] }
        return keys.first { pairs[$0].scalar?.value == name }.map { pairs[$0].range }
    }

    /// YAML merge keys (`<<: *defaults`, `<<: [*a, *b]`): pairs of the merged mappings are added
    /// unless the mapping already has the key; earlier merged mappings win over later ones.
    private mutating func mergeKeys(_ pairs: [YAMLPair]) -> [YAMLPair] {
        guard pairs.contains(where: { $0.key.scalar?.value == "<<" && $0.key.scalar?.style == .plain }) else { return pairs }
        var result: [YAMLPair] = []
        var sources: [YAMLNode] = []
        for pair in pairs {
            if pair.key.scalar?.value == "<<" && pair.key.scalar?.style == .plain {
                switch pair.value.content {
                case .mapping: sources.append(pair.value)
                case .sequence(let items) where items.allSatisfy({ $0.mapping != nil }): sources.append(contentsOf: items)
                default:
                    error("yaml-syntax", "a merge key '<<' needs a mapping or a list of mappings to merge", at: pair.value.range)
                }
            } else {
                result.append(pair)
            }
        }
        var present = Set(result.compactMap { $0.key.scalar?.value })
        for source in sources {
            for pair in source.mapping ?? [] {
                guard let name = pair.key.scalar?.value, !present.contains(name) else { continue }
                present.insert(name)
                result.append(pair)
            }
        }
        return result
    }

    private static let standardTags: Set<String> = [
        "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map", "!",
    ]

    /// webpolicy reads plain YAML: the standard `!!` tags are fine, application tags are not.
    private mutating func checkTag(_ tag: String?, at range: SourceRange, kind: String) {
        guard let tag else { return }
        if !Self.standardTags.contains(tag) {
            error("yaml-tag", "the tag '\(tag)' on this \(kind) means nothing to webpolicy", at: range,
                  hint: "remove the tag; policies use plain YAML values")
        }
    }

    // MARK: - Errors and positions

    private mutating func reportParserError(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        if problem.utf8.starts(with: "Maximum nesting level reached".utf8) {
            // libyaml scans a run of '[' or '{' ahead of its events and stops at its own limit.
            error("yaml-limits", "the document nests deeper than \(Self.maximumDepth) levels", at: SourceRange(at: position(parser.problem_mark)),
                  hint: "a policy needs only a few levels; this looks like generated or hostile input")
            return
        }
        var mark = parser.problem_mark
        if parser.error == YAML_READER_ERROR {
            mark = markForByteOffset(Int(parser.problem_offset))
        }
        // At the end of a file without a final line break, libyaml's stream end is a line past it.
        let at = min(position(mark), file.endPosition)
        var notes: [Diagnostic.Note] = []
        if let context = parser.context.map({ String(cString: $0) }), parser.context_mark.line != mark.line || parser.context_mark.column != mark.column {
            notes.append(Diagnostic.Note(context, at: file.location(at: position(parser.context_mark))))
        }
        var hint: String?
        let context = parser.context.map { String(cString: $0) } ?? ""
        let offending = file.line(at.line).dropFirst(at.column - 1).first
        if offending == "\t" {
            hint = "YAML does not allow tabs for indentation; indent with spaces"
        } else if let columns = YAMLIndentationHint.hint(problem: problem, at: at, in: file) {
            hint = columns
        } else if problem.containsBytes(of: "mapping values are not allowed") {
            hint = "a value containing ': ' must be quoted, or the line is indented wrongly"
        } else if context.containsBytes(of: "alias") || context.containsBytes(of: "anchor") {
            hint = "a value starting with '*' or '&' is a YAML alias or anchor; quote host patterns: \"*.example.com\""
        } else if context.containsBytes(of: "quoted scalar") {
            hint = "the quoted string opened at \(position(parser.context_mark)) is never closed"
        }
        error("yaml-syntax", "invalid YAML: \(problem)", at: SourceRange(at: at), notes: notes, hint: hint)
    }

    /// libyaml's reader errors carry a byte offset instead of a line and column.
    private func markForByteOffset(_ offset: Int) -> yaml_mark_t {
        var line = 0
        var column = 0
        var consumed = 0
        var previous: Unicode.Scalar?
        for scalar in file.text.unicodeScalars {
            if consumed >= offset { break }
            consumed += UTF8.width(scalar)
            if SourceFile.isLineBreak(scalar) && !(scalar == "\n" && previous == "\r") {
                line += 1
                column = 0
            } else if scalar != "\n" || previous != "\r" {
                column += 1
            }
            previous = scalar
        }
        var mark = yaml_mark_t()
        mark.line = numericCast(line)
        mark.column = numericCast(column)
        return mark
    }

    /// libyaml ends the stream on a line of its own (it forces a line break at the end of a
    /// file without one), so a mark there — an empty value after `? key` at the end — would be a
    /// line the file does not have: it is the file's end. (`mark.index` counts characters.)
    private func position(_ mark: yaml_mark_t) -> SourcePosition {
        if Int(mark.index) >= characterCount { return file.endPosition }
        return SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// libyaml ends block scalars at the start of the following line; end them on their own.
    private func endPosition(_ mark: yaml_mark_t, after start: SourcePosition) -> SourcePosition {
        var end = position(mark)
        while end.column == 1 && end.line > start.line {
            end = SourcePosition(line: end.line - 1, column: file.line(end.line - 1).count + 1)
        }
        return end
    }

    private mutating func error(_ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = [], hint: String? = nil) {
        diagnostics.append(Diagnostic(ruleID: rule, severity: .error, message: message, location: file.location(range), notes: notes, hint: hint))
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
