import URLFilter
import WebPolicyRuntime

/// `simulate --format json`: JSON Lines written as results are decided (docs/trace-format.md).
///
/// A real blocklist applies hundreds of universal rules (`css-display-none` on every page, with
/// thousands of selectors) to every request; repeating them on each line made 20,000 requests
/// 4.7 GB. The part that is the same from page to page is written once, as a `shared` record,
/// and each request that it all acts on names the record (`"shared": "s1"`) and lists only
/// what it adds: its own matched rules, hidden selectors and notifications. The output stays
/// proportional to what differs per request.
///
/// The lines themselves are written where they are decided (`JSONLinesChunk`); this puts in
/// what only the run's order gives: each line's trace, and the shared records' names.
public struct SimulationJSONWriter {
    /// A record written: its rules (to know it again by content) and name.
    private final class Record {
        let match: ContentRuleEngine.UniversalMatch
        let engine: ContentRuleEngine
        let name: String

        init(match: ContentRuleEngine.UniversalMatch, engine: ContentRuleEngine, name: String) {
            self.match = match
            self.engine = engine
            self.name = name
        }
    }

    /// Records written lately; kinds of load and pages come and go, so a few are enough (one
    /// that was forgotten is written again under a new name).
    private var recent: [Record] = []
    private var written = 0
    /// `{"trace":"PATH",` for the trace written last.
    private var opening: (trace: String, bytes: [UInt8]) = ("", [])
    /// The lines of results handed over one at a time, its common texts kept between them.
    private var single = JSONLinesChunk()

    public init() {}

    /// A part of a run, as `SimulationSession.run(paths:json:)` hands it over.
    public mutating func write(_ part: JSONLinesPart, trace: String, into output: inout [UInt8]) {
        switch part {
        case .chunk(let chunk): write(chunk, trace: trace, into: &output)
        case .result(let result): write(result, trace: trace, into: &output)
        }
    }

    /// One result's lines: its shared record first when it is new, then the request.
    public mutating func write(_ result: RequestResult, trace: String, into output: inout [UInt8]) {
        var chunk = single
        single = JSONLinesChunk()
        chunk.removeLines()
        chunk.add(result)
        write(chunk, trace: trace, into: &output)
        single = chunk
    }

    /// `write(_:trace:into:)` as text.
    public mutating func lines(for result: RequestResult, trace: String) -> String {
        var output: [UInt8] = []
        write(result, trace: trace, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// A chunk's lines in order, each after its shared record when that is new.
    mutating func write(_ chunk: JSONLinesChunk, trace: String, into output: inout [UInt8]) {
        if opening.trace != trace || opening.bytes.isEmpty {
            var bytes: [UInt8] = []
            ResultLine.key("trace", &bytes)
            JSONStringBytes.append(quoting: trace, to: &bytes)
            bytes.append(0x2C)
            opening = (trace, [0x7B] + bytes)
        }
        output.reserveCapacity(output.count + chunk.bytes.count + chunk.lines.count * (opening.bytes.count + 16))
        // Each common match of the chunk's is looked up among the records once, by content,
        // and after that by reference while its record is still among the recent ones.
        var records = [Record?](repeating: nil, count: chunk.commons.count)
        for line in chunk.lines {
            var name: String?
            if line.common >= 0 {
                if let known = records[line.common], recent.contains(where: { $0 === known }) {
                    name = known.name
                } else {
                    let common = chunk.commons[line.common]
                    let record = record(common.match, common.engine, into: &output)
                    records[line.common] = record
                    name = record.name
                }
            }
            output.append(contentsOf: opening.bytes)
            output.append(contentsOf: chunk.bytes[line.start..<line.shared])
            if let name {
                ResultLine.key("shared", &output)
                JSONStringBytes.append(quoting: name, to: &output)
                output.append(0x2C)
            }
            output.append(contentsOf: chunk.bytes[line.shared..<line.end])
        }
    }

    /// The name of the record of `match`; the record's line is written first when it is new.
    private mutating func record(_ match: ContentRuleEngine.UniversalMatch, _ engine: ContentRuleEngine, into output: inout [UInt8]) -> Record {
        if let known = recent.first(where: { JSONLinesChunk.Common.same(match, engine, as: $0.match, $0.engine) }) { return known }
        written += 1
        let record = Record(match: match, engine: engine, name: "s\(written)")
        recent.append(record)
        if recent.count > 16 { recent.removeFirst() }
        let surviving = match.commonSurviving
        // The rules' origins by the encoder every request line's own rules go through.
        output.append(contentsOf: #"{"shared":"#.utf8)
        JSONStringBytes.append(quoting: record.name, to: &output)
        output.append(contentsOf: #","matchedRules":["#.utf8)
        for (index, rule) in match.commonMatched.enumerated() {
            if index > 0 { output.append(0x2C) }
            ResultLine.origin(engine.origin(of: rule), &output)
        }
        output.append(contentsOf: #"],"hiddenSelectors":"#.utf8)
        JSONValue.array(Self.unique(surviving.compactMap { engine.selector(of: $0) }).map(JSONValue.string)).write(into: &output)
        output.append(contentsOf: #","notifications":"#.utf8)
        JSONValue.array(Self.unique(surviving.compactMap { engine.notification(of: $0) }).map(JSONValue.string)).write(into: &output)
        output.append(contentsOf: [0x7D, 0x0A])
        return record
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

/// What a run hands `--format json` for a trace: a chunk of lines written where they were
/// decided, or one result (when something else needs each result too, such as coverage).
public enum JSONLinesPart {
    case chunk(JSONLinesChunk)
    case result(RequestResult)
}
