import Foundation
import URLFilter
import WebPolicyRuntime

/// One request line of a trace (docs/trace-format.md).
///
/// What most lines say — a type and a URL, perhaps an expectation — is held inline; what few
/// say (`top=`, `frame=`, `method=`, `cookies=`, `actions=`, `by=`, `handoff=`, a message's
/// handler) in one shared object, made only for a line that says one of them. An entry is
/// copied from the parser to its block, its chunk and its result: a copy should cost a
/// reference count or two, not one for each of a dozen fields (the profile of a million-line
/// simulate: copying and releasing entries field by field was a tenth of it).
public struct TraceEntry: Sendable {
    /// A `page` line, a navigation that leaves the page, or a subresource or frame load (a
    /// `message` line is not a load: `message` says what it is).
    public typealias Kind = LoadKind

    public var line: Int
    public var kind: Kind
    /// The type as written (`script`, `page`), or the default.
    public var typeName: String
    /// The concrete type content rules see.
    public var resourceType: ResourceType
    public var url: CanonicalURL
    public var urlRange: SourceRange
    public var expect: Verdict?
    /// Where `expect=` is, for `--record` to rewrite it.
    public var expectRange: SourceRange?
    /// The column just after the last field, where `--record` appends `expect=`.
    public var fieldsEnd: Int = 0
    private var details: Details?

    /// What few lines say, kept apart (copy on write).
    private final class Details: @unchecked Sendable {
        // Mutated only through a uniquely referenced TraceEntry.
        var top: CanonicalURL?
        var frame: CanonicalURL?
        var method: String?
        var cookies: [String]?
        var actions: [ContentActionType]?
        var initiator: NavigationInitiator?
        var expectHandoff: Bool?
        var message: ScriptMessage?
        var bind: BindRequest?
        var permission: PermissionRequest?

        init() {}

        func copy() -> Details {
            let copy = Details()
            (copy.top, copy.frame, copy.method, copy.cookies) = (top, frame, method, cookies)
            (copy.actions, copy.initiator, copy.expectHandoff, copy.message, copy.bind) = (actions, initiator, expectHandoff, message, bind)
            copy.permission = permission
            return copy
        }
    }

    public init(line: Int, kind: Kind, typeName: String, resourceType: ResourceType, url: CanonicalURL, urlRange: SourceRange,
                top: CanonicalURL? = nil, frame: CanonicalURL? = nil, method: String? = nil, expect: Verdict? = nil) {
        self.line = line
        self.kind = kind
        self.typeName = typeName
        self.resourceType = resourceType
        self.url = url
        self.urlRange = urlRange
        self.expect = expect
        if top != nil { self.top = top }
        if frame != nil { self.frame = frame }
        if method != nil { self.method = method }
    }

    /// The details, made (or copied, when shared) to be written.
    private mutating func writableDetails() -> Details {
        if details == nil {
            details = Details()
        } else if !isKnownUniquelyReferenced(&details!) {
            details = details!.copy()
        }
        return details!
    }

    public var top: CanonicalURL? {
        get { details?.top }
        set { writableDetails().top = newValue }
    }

    public var frame: CanonicalURL? {
        get { details?.frame }
        set { writableDetails().frame = newValue }
    }

    /// As written (`POST`); nil means GET.
    public var method: String? {
        get { details?.method }
        set { writableDetails().method = newValue }
    }

    /// Expected cookie names; nil when the line does not say.
    public var cookies: [String]? {
        get { details?.cookies }
        set { writableDetails().cookies = newValue }
    }

    /// Expected surviving WebKit actions (`actions=block-cookies,css-display-none`, `none`).
    public var actions: [ContentActionType]? {
        get { details?.actions }
        set { writableDetails().actions = newValue }
    }

    /// How a navigation started (`by=`); nil: a link, or the app's own load for the first page.
    public var initiator: NavigationInitiator? {
        get { details?.initiator }
        set { writableDetails().initiator = newValue }
    }

    /// Whether the view hands the URL to the system (`handoff=yes|no`); nil when not said.
    public var expectHandoff: Bool? {
        get { details?.expectHandoff }
        set { writableDetails().expectHandoff = newValue }
    }

    /// For a `message` line: the handler, frame and world it names (the URL is the sending
    /// frame's document).
    public var message: ScriptMessage? {
        get { details?.message }
        set { writableDetails().message = newValue }
    }

    /// For a `bind` line: the role and the server's URL (also `url`).
    public var bind: BindRequest? {
        get { details?.bind }
        set { writableDetails().bind = newValue }
    }

    /// For a `permission` line: what the page asks for, from which frame (its document is `url`).
    public var permission: PermissionRequest? {
        get { details?.permission }
        set { writableDetails().permission = newValue }
    }
}

extension TraceEntry {
    /// Whether the line says what it expects: a verdict, cookies, actions or a hand-off. A
    /// `bind` line always does: its binding accepted, unless it says `expect=block`.
    public var hasExpectations: Bool { expect != nil || cookies != nil || actions != nil || expectHandoff != nil || bind != nil }

    /// The URL as reports show the line: a message with its handler, and its frame and world
    /// when they are not the main frame and the page world.
    public var shown: String {
        if let bind { return "${\(bind.role)}=\(url)" }
        if let permission { return "\(permission.written) from \(url)" + (permission.frame == .child ? " frame=child" : "") }
        guard let message else { return url.description }
        var text = "\(url) handler=\(message.handler)"
        if message.frame != .main { text += " frame=\(message.frame.rawValue)" }
        if message.world != .page { text += " world=\(message.world.name)" }
        return text
    }

    /// The line as the decision engine takes it: a load, or a script message.
    public var request: EngineRequest {
        if let bind { return .bind(bind) }
        if let permission { return .permission(permission) }
        if let message { return .message(message) }
        return .load(load)
    }

    /// A line with a type, a URL and at most an `expect=`: nothing else for a decision or a
    /// check to look at.
    var isPlain: Bool { details == nil }

    /// The line as a load (for a message line, the sending frame's document, which is not loaded).
    public var load: LoadRequest {
        LoadRequest(kind: kind, resourceType: resourceType, url: url, top: top, frame: frame, method: method, initiator: initiator)
    }
}

public struct Trace: Sendable {
    public var file: SourceFile
    /// The `policy:` header, resolved against the trace's folder, and where it is written.
    public var policyPath: String?
    public var policyRange: SourceRange?
    public var entries: [TraceEntry]

    public init(file: SourceFile, policyPath: String? = nil, policyRange: SourceRange? = nil, entries: [TraceEntry]) {
        self.file = file
        self.policyPath = policyPath
        self.policyRange = policyRange
        self.entries = entries
    }
}

/// Parses trace format v1: `[TYPE] URL [key=value ...]` lines, `page URL`, a `policy:` header,
/// `#` comments. Every problem is reported, at its line and column.
public enum TraceParser {
    public struct Problem: Error, Sendable {
        public var message: String
        public var range: SourceRange
        public var hint: String?
    }

    /// Trace types: the decision engine's (`LoadKind.types`).
    static let types: [String: (LoadKind, ResourceType)] = LoadKind.types.mapValues { ($0.kind, $0.type) }

    static let keys = ["type", "top", "frame", "method", "by", "expect", "handoff", "cookies", "actions", "handler", "world"]
    /// What a `message` line may say besides its URL.
    static let messageKeys = ["handler", "frame", "world", "expect"]
    /// The type of a script message line: not a load, so not one of `types`.
    static let messageType = "message"
    /// The first word of a line that binds a role (`bind server=https://…`).
    static let bindType = "bind"
    /// The first word of a line where a page asks for the camera, the microphone or motion
    /// sensors (`permission camera https://meet.example.com/`).
    static let permissionType = "permission"

    /// The types as a list, for a lookup that hashes nothing: every line of a trace starts
    /// with one. The name kept is the table's own (a literal), not the line's copy of it.
    private static let typeList: [(name: String, bytes: [UInt8], kind: TraceEntry.Kind, type: ResourceType)] =
        types.keys.sorted().map { ($0, Array($0.utf8), types[$0]!.0, types[$0]!.1) }

    /// Where the type written as `written` is in `typeList`. Compared as bytes: String
    /// equality goes through Unicode's rules, on every line. Looked up by its length and its
    /// first and last bytes (`typeSlots`), then compared once: a walk of the list compared
    /// the lengths of half of it and called memcmp for each of the same length.
    private static func typePosition(_ written: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = written.first, let last = written.last else { return nil }
        return typeSlots.withUnsafeBufferPointer { slots in
            var slot = typeSlot(count: written.count, first: first, last: last)
            while slots[slot] >= 0 {
                let position = Int(slots[slot])
                if Self.sameBytes(typeList[position].bytes, written) { return position }
                slot = (slot + 1) & (slots.count - 1)
            }
            return nil
        }
    }

    /// `typeList` positions by `typeSlot` of each type's bytes, probed linearly; -1: empty.
    private static let typeSlots: [Int8] = {
        var slots = [Int8](repeating: -1, count: 64)
        for (position, entry) in typeList.enumerated() {
            var slot = typeSlot(count: entry.bytes.count, first: entry.bytes[0], last: entry.bytes[entry.bytes.count - 1])
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int8(position)
        }
        return slots
    }()

    /// Byte for byte, without `elementsEqual`'s iterators (a generic call per line).
    @inline(__always)
    private static func sameBytes(_ bytes: [UInt8], _ written: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == written.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<bytes.count where bytes[index] != written[index] { return false }
            return true
        }
    }

    @inline(__always)
    private static func typeSlot(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &* 37 &+ Int(first) &* 7 &+ Int(last)) & 63
    }

    static func knownType(_ text: String) -> (name: String, kind: TraceEntry.Kind, type: ResourceType)? {
        var text = text
        if let found = text.withUTF8(typePosition) { return (typeList[found].name, typeList[found].kind, typeList[found].type) }
        if text == messageType { return (messageType, .resource, .other) }
        return nil
    }

    /// Whether the line's first field starts with `policy:` or `origin:` (looked at as bytes,
    /// before any string is compared: nearly every line starts with neither).
    static func startsWithHeaderWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let index = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), let base = bytes.baseAddress, bytes.count - index >= 7 else { return false }
        return memcmp(base + index, "policy:", 7) == 0 || memcmp(base + index, "origin:", 7) == 0
    }

    /// Every type a line may start with.
    static var typeNames: [String] { (types.keys + [messageType, bindType, permissionType]).sorted() }

    /// What one line is.
    public enum Line: Sendable {
        /// Blank, or a comment.
        case empty
        /// `policy: FILE`, as written (resolved later against the trace's folder).
        case header(value: String, range: SourceRange, fields: Int, firstRange: SourceRange)
        case entry(TraceEntry)
        case problems([Problem])
    }

    public static func parse(_ file: SourceFile) -> (trace: Trace, problems: [Problem]) {
        var assembler = Assembler(path: file.path)
        for lineNumber in 1...max(file.lineCount, 1) {
            var text = Substring(file.line(lineNumber))
            assembler.add(text.withUTF8 { parseLine($0, number: lineNumber) })
        }
        return (Trace(file: file, policyPath: assembler.policyPath, policyRange: assembler.policyRange, entries: assembler.entries), assembler.problems)
    }

    /// Puts parsed lines together in order: the `policy:` header's rules, entries, problems.
    public struct Assembler: Sendable {
        let folder: String
        public private(set) var policyPath: String?
        public private(set) var policyRange: SourceRange?
        /// Entries added one at a time, after the `segments`.
        public internal(set) var entries: [TraceEntry] = []
        /// Runs of lines parsed together on one core and added whole: handed on as they are,
        /// without copying each entry into one array.
        private var runs: [TraceRun] = []
        public internal(set) var problems: [Problem] = []
        /// Whether a request line has been seen (the header must come first).
        public private(set) var hasRequests = false

        public init(path: String) {
            folder = path == "-" ? "" : (path as NSString).deletingLastPathComponent
        }

        public mutating func add(_ line: Line) {
            switch line {
            case .empty: break
            case .problems(let found): problems += found
            case .entry(let entry):
                hasRequests = true
                entries.append(entry)
            case .header(let value, let range, let fields, let firstRange):
                guard fields <= 1 else {
                    problems.append(Problem(message: "a policy: header names one policy file", range: firstRange))
                    return
                }
                if hasRequests {
                    problems.append(Problem(message: "the policy: header must come before the first request", range: firstRange))
                } else if policyPath != nil {
                    problems.append(Problem(message: "a second policy: header; a trace has one policy", range: firstRange))
                }
                policyPath = value.hasPrefix("/") || folder.isEmpty ? value : folder + "/" + value
                policyRange = range
            }
        }

        /// Lines parsed together, added after everything before them.
        mutating func add(run: TraceRun) {
            guard run.count > 0 else { return }
            hasRequests = true
            if !entries.isEmpty {
                runs.append(TraceRun(entries: entries))
                entries = []
            }
            runs.append(run)
        }

        /// Whether entries are waiting to be taken.
        public var hasEntries: Bool { !entries.isEmpty || !runs.isEmpty }

        /// Hands over the entries gathered so far as the runs they were parsed in (for
        /// streaming: memory for a block only).
        public mutating func takeSegments() -> [[TraceEntry]] {
            takeRuns().map { $0.materialised() }
        }

        /// `takeSegments`, with plain lines kept as they were read (a counted simulation).
        mutating func takeRuns() -> [TraceRun] {
            var taken = runs
            if !entries.isEmpty { taken.append(TraceRun(entries: entries)) }
            runs = []
            entries = []
            return taken
        }

        /// Hands over the entries gathered so far, as one array.
        public mutating func takeEntries() -> [TraceEntry] {
            let taken = takeSegments()
            return taken.count == 1 ? taken[0] : Array(taken.joined())
        }
    }

    /// Parses one line (its UTF-8 bytes, without the line break).
    public static func parseLine(_ bytes: UnsafeBufferPointer<UInt8>, number lineNumber: Int) -> Line {
        if let entry = parseCommonLine(bytes, number: lineNumber) { return .entry(entry) }
        return parseAnyLine(bytes, number: lineNumber)
    }

    /// The line nearly every trace is made of — `TYPE URL`, with `top=URL`, `frame=URL` and
    /// `expect=VERDICT` after it in any order, in ASCII — read from its bytes: the fields found
    /// as ranges, the type compared as bytes, one string made for each URL. Nil for anything
    /// else, and for anything wrong, which `parseAnyLine` reads and reports; a test holds both
    /// to the same entries.
    static func parseCommonLine(_ bytes: UnsafeBufferPointer<UInt8>, number lineNumber: Int) -> TraceEntry? {
        guard let line = plainFields(bytes) else { return nil }
        let type = typeList[line.typePosition]
        func parsed(_ field: Range<Int>) -> CanonicalURL? {
            guard case .success(let url) = CanonicalURL.parse(String(decoding: UnsafeBufferPointer(rebasing: bytes[field]), as: UTF8.self)) else { return nil }
            return url
        }
        guard let url = parsed(line.url) else { return nil }
        // ASCII: a field's columns are its byte offsets, from 1.
        func range(_ field: Range<Int>) -> SourceRange {
            SourceRange(start: SourcePosition(line: lineNumber, column: field.lowerBound + 1), end: SourcePosition(line: lineNumber, column: field.upperBound + 1))
        }
        var entry = TraceEntry(line: lineNumber, kind: type.kind, typeName: type.name, resourceType: type.type, url: url, urlRange: range(line.url))
        // `top=` and `frame=` (a proxy log's ping or popup): read here too, not field by field
        // as strings; a URL that does not parse is reported by `parseAnyLine`.
        if let top = line.top {
            guard let topURL = parsed(top) else { return nil }
            entry.top = topURL
        }
        if let frame = line.frame {
            guard let frameURL = parsed(frame) else { return nil }
            entry.frame = frameURL
        }
        entry.fieldsEnd = max(line.url.upperBound, line.expect?.field.upperBound ?? 0, line.top?.upperBound ?? 0, line.frame?.upperBound ?? 0) + 1
        if let expect = line.expect {
            entry.expect = expect.verdict
            entry.expectRange = range(expect.field)
        }
        return entry
    }

    /// A common line as a counted simulation takes it (`PlainLine`), when it is one: a plain
    /// subresource type (one `DecisionEngine.countedVerdict` answers for) and a URL already
    /// canonical as written, so that it is matched where it lies in the block. `offset`: where
    /// the line starts in the block. Anything else is parsed into an entry.
    /// A line that names its page (`top=URL`, as a proxy log or a HAR export writes every
    /// line) or its frame (`frame=URL`) is one too: the simulation matches it on that page,
    /// worked out once for the lines that share it.
    static func parsePlainLine(_ bytes: UnsafeBufferPointer<UInt8>, number lineNumber: Int, offset: Int) -> PlainLine? {
        guard let line = plainFields(bytes), let type = plainTypes[line.typePosition] else { return nil }
        guard let url = CanonicalURL.SimpleURL(UnsafeBufferPointer(rebasing: bytes[line.url])), url.isCanonical else { return nil }
        let start = offset + line.url.lowerBound
        var plain = PlainLine(line: Int32(lineNumber), lineStart: Int32(offset), lineEnd: Int32(offset + bytes.count), requestStart: Int32(start),
                              requestEnd: Int32(start + url.requestEnd), hostStart: Int32(start + url.host.lowerBound), hostEnd: Int32(start + url.host.upperBound),
                              resourceType: type, expect: line.expect?.verdict, isUpgradable: url.isUpgradable)
        // Where the top and frame URLs are: read once for every line that repeats them, by
        // `CountedContexts` (one that is not canonical as written is then decided as any
        // other line is).
        if let top = line.top { (plain.topStart, plain.topEnd) = (Int32(offset + top.lowerBound), Int32(offset + top.upperBound)) }
        if let frame = line.frame { (plain.frameStart, plain.frameEnd) = (Int32(offset + frame.lowerBound), Int32(offset + frame.upperBound)) }
        return plain
    }

    /// The fields of a plain line: `TYPE URL` and at most one each of `top=URL`, `frame=URL`
    /// and `expect=VERDICT`, in any order, in ASCII, without comments; nil for any other line.
    private static func plainFields(_ bytes: UnsafeBufferPointer<UInt8>) -> (typePosition: Int, url: Range<Int>, expect: (verdict: Verdict, field: Range<Int>)?, top: Range<Int>?, frame: Range<Int>?)? {
        // Read field by field, each past the second taken as it comes: no list is made on a
        // line nearly every trace line is.
        guard let base = bytes.baseAddress else { return nil }
        var type = 0..<0, url = 0..<0
        var fieldCount = 0
        var expect: (verdict: Verdict, field: Range<Int>)?
        var top: Range<Int>?
        var frame: Range<Int>?
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 {
                index += 1
                continue
            }
            guard byte != 0x23, fieldCount < 5 else { return nil }  // "#"
            let start = index
            index = PrintableASCII.firstFieldEnd(in: bytes, from: index, to: count)
            guard index == count || bytes[index] < 0x80 else { return nil }
            let length = index - start
            switch fieldCount {
            case 0: type = start..<index
            case 1: url = start..<index
            default:
                if length > 7, expect == nil, memcmp(base + start, "expect=", 7) == 0 {
                    guard let verdict = Verdict(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 7)..<index]), as: UTF8.self)) else { return nil }
                    expect = (verdict, start..<index)
                } else if length > 4, top == nil, memcmp(base + start, "top=", 4) == 0 {
                    top = (start + 4)..<index
                } else if length > 6, frame == nil, memcmp(base + start, "frame=", 6) == 0 {
                    frame = (start + 6)..<index
                } else {
                    return nil
                }
            }
            fieldCount += 1
        }
        guard fieldCount >= 2, let position = typePosition(UnsafeBufferPointer(rebasing: bytes[type])) else { return nil }
        return (position, url, expect, top, frame)
    }

    /// By `typeList` position: the concrete type of a subresource type a counted simulation
    /// can take the verdict alone of; nil for the others.
    private static let plainTypes: [ResourceType?] = typeList.map { $0.kind == .resource && DecisionEngine.countsVerdict(of: $0.type) ? $0.type : nil }

    /// Parses any line, and says what is wrong with one that is not right.
    static func parseAnyLine(_ bytes: UnsafeBufferPointer<UInt8>, number lineNumber: Int) -> Line {
        let fields = Self.fields(of: bytes)
        guard let first = fields.first else { return .empty }
        func range(_ field: (text: String, column: Int, width: Int), from offset: Int = 0) -> SourceRange {
            SourceRange(start: SourcePosition(line: lineNumber, column: field.column + offset),
                        end: SourcePosition(line: lineNumber, column: field.column + field.width))
        }
        let mayBeHeader = startsWithHeaderWord(bytes)
        if mayBeHeader, first.text == "policy:" || first.text.hasPrefix("policy:") {
            let value = first.text == "policy:" ? fields.dropFirst().first : (String(first.text.dropFirst("policy:".count)), first.column + 7, first.width - 7)
            let extra = first.text == "policy:" ? fields.count - 1 : fields.count
            guard let value else { return .problems([Problem(message: "a policy: header names one policy file", range: range(first))]) }
            return .header(value: value.text, range: range(value), fields: extra, firstRange: range(first))
        }
        if first.text == bindType { return parseBindLine(fields, number: lineNumber) }
        if first.text == permissionType { return parsePermissionLine(fields, number: lineNumber) }
        if mayBeHeader, first.text == "origin:" {
            return .problems([Problem(message: "an origin: line is the first line of the input, or nowhere", range: range(first),
                                      hint: "a shard's first line may say where it was cut from: origin: TRACE:LINE")])
        }
        var problems: [Problem] = []
        var position = 0
        var kind = TraceEntry.Kind.resource
        var typeName = "other"
        var resourceType = ResourceType.other
        if let known = knownType(first.text) {
            (kind, resourceType) = (known.kind, known.type)
            typeName = known.name
            position = 1
        } else if !first.text.contains(":") {
            let suggestion = Suggestions.closest(to: first.text, in: typeNames).map { " (did you mean '\($0)'?)" } ?? ""
            problems.append(Problem(message: "'\(first.text)' is neither a request type nor a URL\(suggestion)", range: range(first),
                                    hint: "types: \(typeNames.joined(separator: ", ")); a URL has a scheme, like https:"))
            return .problems(problems)
        }
        guard position < fields.count else {
            problems.append(Problem(message: "'\(first.text)' needs a URL after it", range: range(first)))
            return .problems(problems)
        }
        let urlField = fields[position]
        var entry: TraceEntry
        switch CanonicalURL.parse(urlField.text) {
        case .failure(let error):
            problems.append(Problem(message: "the URL '\(urlField.text)' does not parse: \(error.message)", range: range(urlField, from: error.offset)))
            return .problems(problems)
        case .success(let url):
            entry = TraceEntry(line: lineNumber, kind: kind, typeName: typeName, resourceType: resourceType, url: url,
                               urlRange: range(urlField))
            entry.fieldsEnd = fields.last.map { $0.column + $0.width } ?? 1
        }
        var seen: [String] = []
        let isMessage = entry.typeName == messageType
        var handler: String?, messageFrame = MessageFrame.main, world = ContentWorldName.page
        for field in fields[(position + 1)...] {
            guard let equals = field.text.firstIndex(of: "=") else {
                problems.append(Problem(message: "'\(field.text)' is not key=value", range: range(field), hint: "keys: \(keys.joined(separator: ", "))"))
                continue
            }
            let key = String(field.text[..<equals])
            let value = String(field.text[field.text.index(after: equals)...])
            let valueColumn = key.unicodeScalars.count + 1
            guard keys.contains(key) else {
                let suggestion = Suggestions.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append(Problem(message: "unknown key '\(key)'\(suggestion)", range: range(field), hint: "keys: \(keys.joined(separator: ", "))"))
                continue
            }
            guard !seen.contains(key) else {
                problems.append(Problem(message: "'\(key)' is given twice", range: range(field)))
                continue
            }
            seen.append(key)
            if isMessage != (key == "handler" || key == "world") && !(key == "expect" || key == "frame") {
                problems.append(isMessage
                    ? Problem(message: "a message line says \(messageKeys.joined(separator: ", ")), not \(key)=", range: range(field),
                              hint: "the URL is the sending frame's document; frame=main or frame=child says which frame it is")
                    : Problem(message: "\(key)= goes on message lines", range: range(field), hint: "message URL handler=NAME [frame=main|child] [world=page|client|NAME]"))
                continue
            }
            switch key {
            case "handler":
                guard !value.isEmpty else {
                    problems.append(Problem(message: "handler= names the bridge the message is posted to", range: range(field)))
                    continue
                }
                handler = value
            case "world":
                guard !value.isEmpty else {
                    problems.append(Problem(message: "world= names a content world: page, client or a name of the app's", range: range(field)))
                    continue
                }
                world = ContentWorldName(value)
            case "frame" where isMessage:
                guard let frame = MessageFrame(rawValue: value) else {
                    problems.append(Problem(message: "on a message line, frame= is main or child, not '\(value)'", range: range(field, from: valueColumn),
                                            hint: "the URL is the sending frame's document; frame= says whether that frame is the main frame"))
                    continue
                }
                messageFrame = frame
            case "type":
                guard position == 0, let known = types[value] else {
                    let message = position == 1 ? "the type is already '\(typeName)'" : "'\(value)' is not a request type"
                    problems.append(Problem(message: message, range: range(field, from: valueColumn), hint: "types: \(types.keys.sorted().joined(separator: ", "))"))
                    continue
                }
                (entry.kind, entry.resourceType) = known
                entry.typeName = value
            case "top", "frame":
                switch CanonicalURL.parse(value) {
                case .failure(let error):
                    problems.append(Problem(message: "the \(key) URL '\(value)' does not parse: \(error.message)", range: range(field, from: valueColumn + error.offset)))
                case .success(let url):
                    if key == "top" { entry.top = url } else { entry.frame = url }
                }
            case "method":
                guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
                    problems.append(Problem(message: "'\(value)' is not an HTTP method", range: range(field, from: valueColumn)))
                    continue
                }
                entry.method = value.uppercased()
            case "expect":
                guard let verdict = Verdict(rawValue: value) else {
                    problems.append(Problem(message: "'\(value)' is not a verdict", range: range(field, from: valueColumn),
                                            hint: "expect one of \(Verdict.allCases.map(\.rawValue).joined(separator: ", "))"))
                    continue
                }
                entry.expect = verdict
                entry.expectRange = range(field)
            case "by":
                guard let initiator = NavigationInitiator(rawValue: value) else {
                    let suggestion = Suggestions.closest(to: value, in: NavigationInitiator.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
                    problems.append(Problem(message: "'\(value)' is not how a navigation starts\(suggestion)", range: range(field, from: valueColumn),
                                            hint: "by= one of \(NavigationInitiator.allCases.map(\.rawValue).joined(separator: ", "))"))
                    continue
                }
                entry.initiator = initiator
            case "handoff":
                guard value == "yes" || value == "no" else {
                    problems.append(Problem(message: "'\(value)' is neither yes nor no", range: range(field, from: valueColumn),
                                            hint: "handoff=yes: the view hands the URL to the system; handoff=no: it does not"))
                    continue
                }
                entry.expectHandoff = value == "yes"
            case "actions":
                var actions: [ContentActionType] = []
                for name in value == "none" ? [] : value.split(separator: ",").map(String.init) {
                    guard let action = ContentActionType(rawValue: name), [.block, .blockCookies, .cssDisplayNone, .makeHTTPS, .notify].contains(action) else {
                        problems.append(Problem(message: "'\(name)' is not an action that survives to a load", range: range(field, from: valueColumn),
                                                hint: "actions: block, block-cookies, css-display-none, make-https, notify, or none"))
                        continue
                    }
                    actions.append(action)
                }
                entry.actions = actions
            default:  // cookies
                entry.cookies = value.isEmpty || value == "none" ? [] : value.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
            }
        }
        if isMessage {
            if let handler {
                entry.message = ScriptMessage(frameURL: entry.url, frame: messageFrame, handler: handler, world: world)
            } else if problems.isEmpty {
                problems.append(Problem(message: "a message line names its handler: handler=NAME", range: range(first),
                                        hint: "message URL handler=NAME [frame=main|child] [world=page|client|NAME]"))
            }
        }
        if entry.initiator != nil, entry.kind == .resource, entry.resourceType != .childDocument, entry.resourceType != .popup,
           let field = fields.first(where: { $0.text.hasPrefix("by=") }) {
            problems.append(Problem(message: "by= says how a navigation started, and '\(entry.typeName)' is not a navigation", range: range(field),
                                    hint: "by= goes on page, document, top-document, child-document and popup lines"))
        }
        return problems.isEmpty ? .entry(entry) : .problems(problems)
    }

    /// `bind ROLE=URL [expect=allow|block]`: the app binds a `runtime-hosts` role to a server.
    private static func parseBindLine(_ fields: [(text: String, column: Int, width: Int)], number lineNumber: Int) -> Line {
        func range(_ field: (text: String, column: Int, width: Int), from offset: Int = 0) -> SourceRange {
            SourceRange(start: SourcePosition(line: lineNumber, column: field.column + offset),
                        end: SourcePosition(line: lineNumber, column: field.column + field.width))
        }
        let usage = "bind ROLE=URL [expect=allow|block], such as: bind server=https://ha.example.com"
        guard fields.count >= 2, let equals = fields[1].text.firstIndex(of: "=") else {
            return .problems([Problem(message: "a bind line names a role and its server: ROLE=URL", range: range(fields[0]), hint: usage)])
        }
        let binding = fields[1]
        let role = String(binding.text[..<equals])
        let text = String(binding.text[binding.text.index(after: equals)...])
        let urlOffset = role.unicodeScalars.count + 1
        guard !role.isEmpty else {
            return .problems([Problem(message: "the bind line names no role before '='", range: range(binding), hint: usage)])
        }
        if let name = HostScope.roleName(role) {
            return .problems([Problem(message: "a bind line names the role without ${}: \(name)=", range: range(binding), hint: usage)])
        }
        let url: CanonicalURL
        switch CanonicalURL.parse(text) {
        case .failure(let error):
            return .problems([Problem(message: "the URL '\(text)' does not parse: \(error.message)", range: range(binding, from: urlOffset + error.offset))])
        case .success(let parsed): url = parsed
        }
        var entry = TraceEntry(line: lineNumber, kind: .resource, typeName: bindType, resourceType: .other, url: url, urlRange: range(binding, from: urlOffset))
        entry.bind = BindRequest(role: role, url: url)
        entry.fieldsEnd = fields.last.map { $0.column + $0.width } ?? 1
        var problems: [Problem] = []
        for field in fields.dropFirst(2) {
            guard field.text.hasPrefix("expect="), entry.expect == nil else {
                let key = field.text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? field.text
                let suggestion = key != "expect" && Suggestions.closest(to: key, in: ["expect"]) != nil ? " (did you mean 'expect'?)" : ""
                problems.append(Problem(message: "a bind line says ROLE=URL and at most expect=\(suggestion)", range: range(field), hint: usage))
                continue
            }
            let value = String(field.text.dropFirst("expect=".count))
            guard let verdict = Verdict(rawValue: value), verdict == .allow || verdict == .block else {
                problems.append(Problem(message: "a binding is accepted (allow) or refused (block), not '\(value)'", range: range(field, from: 7)))
                continue
            }
            entry.expect = verdict
            entry.expectRange = range(field)
        }
        return problems.isEmpty ? .entry(entry) : .problems(problems)
    }

    /// `permission KIND[+KIND] URL [frame=main|child] [expect=allow|block]`: a page asks for
    /// the camera, the microphone or motion sensors; `allow` is WebKit asking the user.
    private static func parsePermissionLine(_ fields: [(text: String, column: Int, width: Int)], number lineNumber: Int) -> Line {
        func range(_ field: (text: String, column: Int, width: Int), from offset: Int = 0) -> SourceRange {
            SourceRange(start: SourcePosition(line: lineNumber, column: field.column + offset),
                        end: SourcePosition(line: lineNumber, column: field.column + field.width))
        }
        let names = PermissionKind.allCases.map(\.rawValue)
        let usage = "permission \(names.joined(separator: "|"))[+…] URL [frame=main|child] [expect=allow|block], such as: permission camera+microphone https://meet.example.com/"
        guard fields.count >= 3 else {
            return .problems([Problem(message: "a permission line names what the page asks for and the URL of the frame that asks", range: range(fields[0]), hint: usage)])
        }
        var kinds: [PermissionKind] = []
        for word in fields[1].text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let kind = PermissionKind(rawValue: String(word)) else {
                let suggestion = Suggestions.closest(to: String(word), in: names).map { " (did you mean '\($0)'?)" } ?? ""
                return .problems([Problem(message: "'\(word)' is not a permission: \(names.joined(separator: ", "))\(suggestion)", range: range(fields[1]), hint: usage)])
            }
            guard !kinds.contains(kind) else {
                return .problems([Problem(message: "'\(kind.rawValue)' is named twice", range: range(fields[1]), hint: usage)])
            }
            kinds.append(kind)
        }
        let written = fields[2]
        let url: CanonicalURL
        switch CanonicalURL.parse(written.text) {
        case .failure(let error):
            return .problems([Problem(message: "the URL '\(written.text)' does not parse: \(error.message)", range: range(written, from: error.offset))])
        case .success(let parsed): url = parsed
        }
        var entry = TraceEntry(line: lineNumber, kind: .resource, typeName: permissionType, resourceType: .other, url: url, urlRange: range(written))
        entry.fieldsEnd = fields.last.map { $0.column + $0.width } ?? 1
        var frame = MessageFrame.main
        var problems: [Problem] = []
        for field in fields.dropFirst(3) {
            if field.text.hasPrefix("frame=") {
                guard let value = MessageFrame(rawValue: String(field.text.dropFirst(6))) else {
                    problems.append(Problem(message: "on a permission line, frame= is main or child, not '\(field.text.dropFirst(6))'", range: range(field, from: 6),
                                            hint: "the line's URL is the requesting frame's document; frame=child says it is an iframe"))
                    continue
                }
                frame = value
            } else if field.text.hasPrefix("expect="), entry.expect == nil {
                let value = String(field.text.dropFirst(7))
                guard let verdict = Verdict(rawValue: value), verdict == .allow || verdict == .block else {
                    problems.append(Problem(message: "a permission is asked (allow) or refused without asking (block), not '\(value)'", range: range(field, from: 7)))
                    continue
                }
                entry.expect = verdict
                entry.expectRange = range(field)
            } else {
                problems.append(Problem(message: "a permission line says KIND URL, and at most frame= and expect=", range: range(field), hint: usage))
            }
        }
        entry.permission = PermissionRequest(kinds: kinds, frameURL: url, frame: frame)
        return problems.isEmpty ? .entry(entry) : .problems(problems)
    }

    /// A line's fields, separated by spaces or tabs, up to a `#` that starts a field (a
    /// comment), each with its column in scalars. Split on UTF-8 bytes: the separators are
    /// ASCII, and a column counts the bytes that start a scalar.
    static func fields(of bytes: UnsafeBufferPointer<UInt8>) -> [(text: String, column: Int, width: Int)] {
        var fields: [(text: String, column: Int, width: Int)] = []
        fields.reserveCapacity(4)
        let count = bytes.count
        var index = 0
        var column = 1
        // Written out rather than through a helper: this runs on every byte of every line.
        while index < count {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 {
                index += 1
                column += 1
            }
            guard index < count, bytes[index] != 0x23 else { break }
            let start = index
            var scalars = 0
            while index < count {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 { break }
                if byte & 0xC0 != 0x80 { scalars += 1 }
                index += 1
            }
            fields.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self), column, scalars))
            column += scalars
        }
        return fields
    }
}
