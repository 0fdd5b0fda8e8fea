// webpolicy-bench: release-build benchmarks of the lint pipeline (docs/benchmarks.md).
//
//   swift run -c release webpolicy-bench [--iterations N] [--size-mb M]
//   swift run -c release webpolicy-bench --list ../shared/data/real/easy.json [--iterations N]
//   swift run -c release webpolicy-bench --hosts 100000
//   swift run -c release webpolicy-bench --audit path/to/App [--policy FILE] [--iterations N]
//   swift run -c release webpolicy-bench --lsp [--list ../shared/data/real/easy.json] [--edits N]
//
// With --list, a real content-blocker list instead (RealListBenchmark.swift): import, lint and
// compile through the command line next to WebKit's own compile of the same list.
//
// Each case is timed N times (median reported). The baseline, measured in the same run on the
// same bytes, is libyaml merely reading the file's events — the floor any YAML-based linter
// pays — so results read as "lint costs k× a bare YAML parse", comparable across machines.

import BenchSupport
import CYaml
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Options {
    var iterations = 5
    var sizeMB = 10
    var list: String?
    var hosts: Int?
    var audit: String?
    var policy: String?
    var iterationsGiven = false
    var lsp = false
    var edits = 10_000

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--iterations":
                iterations = Int(iterator.next() ?? "") ?? iterations
                iterationsGiven = true
            case "--list": list = iterator.next()
            case "--hosts": hosts = Int(iterator.next() ?? "")
            case "--audit": audit = iterator.next()
            case "--policy": policy = iterator.next()
            case "--size-mb": sizeMB = Int(iterator.next() ?? "") ?? sizeMB
            case "--lsp": lsp = true
            case "--edits": edits = Int(iterator.next() ?? "") ?? edits
            default:
                FileHandle.standardError.write(Data("usage: webpolicy-bench [--iterations N] [--size-mb M | --list LIST.json | --hosts N | --audit DIR [--policy FILE] | --lsp [--list LIST.json] [--edits N]]\n".utf8))
                exit(2)
            }
        }
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ iterations: Int, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = now()
        body()
        samples.append(Double(now() - start) / 1e9)
    }
    return samples.sorted()[samples.count / 2]
}

/// Counts libyaml events: the baseline.
func libyamlEvents(_ text: String) -> Int {
    var parser = yaml_parser_t()
    yaml_parser_initialize(&parser)
    defer { yaml_parser_delete(&parser) }
    let bytes = Array(text.utf8)
    var count = 0
    bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            count += 1
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if done { break }
        }
    }
    return count
}

func largePolicy(megabytes: Int) -> String {
    var parts = ["webpolicy: 1\nname: large\ncontent-rules:\n"]
    var size = parts[0].utf8.count
    var index = 0
    while size < megabytes * 1024 * 1024 {
        let rule = """
          - id: block-tracker-\(index)
            action: block
            url-filter: '^https?://([^/]+\\.)?tracker-\(index)\\.example\\.net/'
            resource-type: [script, image]
            load-type: [third-party]

        """
        parts.append(rule)
        size += rule.utf8.count
        index += 1
    }
    return parts.joined()
}

func aliasBomb() -> String {
    var text = "webpolicy: 1\nname: bomb\nx-0: &l0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
    for level in 1...9 {
        text += "x-\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    return text + "content-rules: *l9\n"
}

let options = Options(CommandLine.arguments)
if let hosts = options.hosts {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("webpolicy-bench-hosts-\(getpid())")
    exitOnFailure {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try HostListBenchmark(hosts: hosts).run(in: folder)
    }
    exit(0)
}

if options.lsp {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("webpolicy-bench-lsp-\(getpid())")
    exitOnFailure {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try LSPBenchmark(list: options.list, edits: options.edits).run(in: folder)
    }
    exit(0)
}

if let directory = options.audit {
    exitOnFailure { try AuditBenchmark(directory: directory, policy: options.policy, iterations: options.iterationsGiven ? max(options.iterations, 1) : 3).run() }
    exit(0)
}

if let list = options.list {
    // Whole commands of several seconds each: one run unless asked for more.
    exitOnFailure { try RealListBenchmark(list: list, iterations: options.iterationsGiven ? max(options.iterations, 1) : 1).run() }
    exit(0)
}
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-bench-\(ProcessInfo.processInfo.processIdentifier)")
exitOnFailure { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
defer { try? FileManager.default.removeItem(at: folder) }

let large = largePolicy(megabytes: options.sizeMB)
let largePath = folder.appendingPathComponent("large.yaml").path
exitOnFailure { try large.write(toFile: largePath, atomically: true, encoding: .utf8) }
let cases: [(String, Data)] = [
    ("alias-bomb", Data(aliasBomb().utf8)),
    ("binary", Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
    ("invalid-utf8", Data(large.prefix(2_000_000).utf8) + Data([0xC3, 0x28])),
    ("empty", Data()),
    // One url-filter group of 100,000 characters: once quadratic in the URL-filter parser.
    ("long-group", Data(("webpolicy: 1\nname: group\ncontent-rules:\n  - action: block\n    url-filter: \"^https://x/(" + String(repeating: "a", count: 100_000) + ")\"\n").utf8)),
]
for (name, data) in cases { try data.write(to: folder.appendingPathComponent("\(name).yaml")) }

let megabytes = Double(large.utf8.count) / 1_048_576
print("webpolicy-bench: \(options.iterations) iterations, median wall time; large policy \(String(format: "%.1f", megabytes)) MB")

var events = 0
let baseline = median(options.iterations) { events = libyamlEvents(large) }
let load = median(options.iterations) { _ = PolicyLoader().load(path: largePath) }
var report: LintReport?
let lint = median(options.iterations) { report = try? Linter().lint(paths: [largePath]) }
print(String(format: "  baseline  libyaml events only       %7.3f s  (%d events)", baseline, events))
print(String(format: "  load      compose + decode          %7.3f s  %5.1f× baseline", load, load / baseline))
print(String(format: "  lint      load + all rules          %7.3f s  %5.1f× baseline  %5.1f MB/s  (%d diagnostics)", lint, lint / baseline, megabytes / lint, report?.diagnostics.count ?? -1))
for (name, _) in cases {
    let path = folder.appendingPathComponent("\(name).yaml").path
    var first = "none"
    let time = median(options.iterations) { first = (try? Linter().lint(paths: [path]))?.diagnostics.first?.ruleID ?? "none" }
    let label = "\(name) → \(first)"
    print("  " + label.padding(toLength: 36, withPad: " ", startingAt: 0) + String(format: "%7.3f s", time))
}

// Compile and import. compile = lint + lowering + WebKit-parser self-check + serialisation of
// the same large policy; its baseline is the lint baseline above. import's baseline is
// Foundation's JSONSerialization merely parsing the compiled list (no positions, no checks).
var compiled: CompileResult?
let compile = median(options.iterations) { compiled = try? PolicyCompiler().compile(path: largePath) }
let listText = compiled?.artefacts.first { $0.kind == .contentRules }?.contents ?? "[]"
let listPath = folder.appendingPathComponent("large.json").path
exitOnFailure { try listText.write(toFile: listPath, atomically: true, encoding: .utf8) }
let jsonBaseline = median(options.iterations) { _ = try? JSONSerialization.jsonObject(with: Data(listText.utf8)) }
var imported: ImportResult?
let importTime = median(options.iterations) { imported = ContentBlockerImporter.importList(path: listPath) }
print(String(format: "  compile   lint + lower + check + JSON  %6.3f s  %5.1f× baseline  (%d artefacts)", compile, compile / baseline, compiled?.artefacts.count ?? -1))
print(String(format: "  json      JSONSerialization parse   %7.3f s  (import's baseline, %.1f MB list)", jsonBaseline, Double(listText.utf8.count) / 1_048_576))
print(String(format: "  import    positioned parse + WebKit checks + YAML %6.3f s  %5.1f× JSONSerialization  (%d rules)", importTime, importTime / jsonBaseline, imported?.importedRules ?? -1))

// Splitting: 150,000 host rules and an ignore-previous-rules in the second list that meets
// none of them, so the automaton-set search must prove all 150,000 pairs disjoint.
let hosts = (0..<150_000).map { "h\($0).example" }.joined(separator: ", ")
let splitPolicy = """
webpolicy: 1
name: split
target: { ios: "16.0" }
content-rules:
  - action: block
    hosts: [\(hosts)]
  - action: ignore-previous-rules
    url-filter: '^https://partner\\.example\\.org/'

"""
let splitPath = folder.appendingPathComponent("split.yaml").path
exitOnFailure { try splitPolicy.write(toFile: splitPath, atomically: true, encoding: .utf8) }
var splitResult: CompileResult?
let split = median(options.iterations) { splitResult = try? PolicyCompiler().compile(path: splitPath) }
let splitLists = splitResult?.artefacts.filter { $0.kind == .contentRules }.count ?? -1
print(String(format: "  split     150,001 rules, overlap proof %6.3f s  (%d lists, %d diagnostics)", split, splitLists, splitResult?.report.diagnostics.count ?? -1))
