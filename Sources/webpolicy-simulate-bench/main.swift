// webpolicy-simulate-bench: the simulate benchmark (docs/benchmarks.md), release build only.
//
//   swift run -c release webpolicy-simulate-bench --list ../shared/data/real/easy.json \
//       --abp ../shared/data/real/easy.abp.txt [--requests N] [--large-mb M]
//   swift run -c release webpolicy-simulate-bench [--rules N] [--requests N]
//   swift run -c release webpolicy-simulate-bench --list LIST --requests N --write-trace FILE
//   swift run -c release webpolicy-simulate-bench --list LIST [--abp FILTERS] --runtime [--requests N]
//
// With a real list (RealListBenchmark.swift): realistic page loads aimed at it, simulated
// end to end through the command line and in the inner loop, next to Brave's engine on the
// same requests and reading the trace, all in one run. Without: a generated policy shaped
// like a blocklist and a trace drawn from it (the figures before real lists).

import BenchSupport
import Foundation
import URLFilter
import WebPolicyRuntime
import WebPolicyKit

var rules = 50_000
var requests = 1_000_000
var listPath: String?
var abpPath: String?
var largeMB = 150
var requestsGiven = false
var writeTrace: String?
var runtime = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--rules": rules = Int(arguments.next() ?? "") ?? rules
    case "--requests":
        requests = Int(arguments.next() ?? "") ?? requests
        requestsGiven = true
    case "--list": listPath = arguments.next()
    case "--abp": abpPath = arguments.next()
    case "--large-mb": largeMB = Int(arguments.next() ?? "") ?? largeMB
    case "--write-trace": writeTrace = arguments.next()
    case "--runtime": runtime = true
    case "--runtime-load":
        // The runtime's start-up as a process of its own, for its peak memory: load the
        // compiled folder and decide one request, as an app's first page load does.
        let policy = exitOnFailure { try RuntimePolicy(compiledDirectory: URL(fileURLWithPath: arguments.next() ?? ".")) }
        let decision = policy.evaluate(RuntimeRequest(url: "https://ads.example.com/banner.js", type: "script", mainDocumentURL: "https://news.example.org/"))
        print(decision.verdict.rawValue)
        exit(0)
    default:
        FileHandle.standardError.write(Data("usage: webpolicy-simulate-bench [--list LIST.json [--abp FILTERS.txt] [--large-mb M] | --rules N] [--requests N] [--write-trace FILE] [--runtime]\n".utf8))
        exit(2)
    }
}

if let writeTrace {
    // Only the realistic trace, for CI and for runs by hand.
    guard let listPath else { FileHandle.standardError.write(Data("--write-trace needs --list\n".utf8)); exit(2) }
    exitOnFailure {
        let vocabulary = try RealisticTrace.Vocabulary(list: Data(contentsOf: URL(fileURLWithPath: listPath)))
        try RealisticTrace(vocabulary: vocabulary).write(requests: requests, toFile: writeTrace)
    }
    exit(0)
}

if let listPath, runtime {
    exitOnFailure { try RuntimeBenchmark(list: listPath, abp: abpPath, requests: requestsGiven ? requests : 100_000).run() }
    exit(0)
}

if let listPath {
    exitOnFailure { try RealListBenchmark(list: listPath, abp: abpPath, requests: requests, largeMegabytes: largeMB).run() }
    exit(0)
}

/// Seeded, so every run simulates the same policy and trace.
var random = SplitMix64(state: 0x51_0F_5EED)
let words = ["ads", "track", "pixel", "metrics", "banner", "promo", "stats", "beacon", "cdn", "static", "media", "widget", "tag", "sync", "collect"]
@MainActor func word() -> String { words.randomElement(using: &random)! }
@MainActor func host(_ index: Int) -> String { "\(word())\(index).\(["com", "net", "io", "co.uk", "de"][index % 5])" }

// The policy: 60% host rules (hosts: sugar, 500 per entry), 30% path rules, 6% domain-conditioned
// cosmetic rules, 4% typed third-party rules.
let hostRuleCount = rules * 6 / 10
let pathRuleCount = rules * 3 / 10
let conditionCount = rules * 6 / 100
let typedCount = rules - hostRuleCount - pathRuleCount - conditionCount
var policy = "webpolicy: 1\nname: blocklist\ntarget: { ios: \"16.0\" }\ncontent-rules:\n"
for start in stride(from: 0, to: hostRuleCount, by: 500) {
    policy += "  - action: block\n    hosts: [" + (start..<min(start + 500, hostRuleCount)).map(host).joined(separator: ", ") + "]\n"
}
var paths: [String] = []
for index in 0..<pathRuleCount {
    let path = "/\(word())/\(word())\(index)"
    paths.append(path)
    policy += "  - action: block\n    url-filter: '\(path.replacingOccurrences(of: ".", with: "\\\\."))[/?.]'\n"
}
for index in 0..<conditionCount {
    policy += "  - action: css-display-none\n    url-filter: '^https?://[^/]+/\(word())'\n    selector: '.\(word())-\(index)'\n    if-domain: [\"*site\(index % 977).example\"]\n"
}
for index in 0..<typedCount {
    policy += "  - action: block\n    url-filter: '\(word())-\(index)\\.js'\n    resource-type: [script]\n    load-type: [third-party]\n"
}

// The trace: pages on 977 sites, requests for blocklisted hosts (1 in 10), blocklisted paths
// (1 in 10) and clean URLs.
let types = ["image", "script", "style-sheet", "fetch", "font", "media", "ping", "other"]
var trace = "policy: blocklist.yaml\n"
trace.reserveCapacity(requests * 70)
for index in 0..<requests {
    if index % 50 == 0 {
        trace += "page https://www.site\(index % 977).example/article/\(index)\n"
        continue
    }
    let type = types[index % types.count]
    switch index % 10 {
    case 0: trace += "\(type) https://\(host(Int.random(in: 0..<hostRuleCount, using: &random)))/x.js\n"
    case 1: trace += "\(type) https://cdn.example.net\(paths.randomElement(using: &random)!)/a.png\n"
    default: trace += "\(type) https://static\(index % 311).example.org/\(word())/\(index).js?v=\(index % 7)\n"
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-simulate-bench-\(ProcessInfo.processInfo.processIdentifier)")
exitOnFailure {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try policy.write(to: folder.appendingPathComponent("blocklist.yaml"), atomically: true, encoding: .utf8)
    try trace.write(to: folder.appendingPathComponent("requests.trace"), atomically: true, encoding: .utf8)
}
defer { try? FileManager.default.removeItem(at: folder) }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

var simulator: Simulator?
var loweredCount = 0
let prepare = exitOnFailure { try seconds {
    let (lint, loaded) = try Linter().lintLoading(path: folder.appendingPathComponent("blocklist.yaml").path)
    guard lint.count(.error) == 0, let loaded else { fatalError("the generated policy has errors: \(lint.diagnostics.prefix(3).map(\.message))") }
    loweredCount = ContentBlockerLowering.lower(loaded).count
    simulator = Simulator(policy: loaded, publicSuffixList: PublicSuffixList.bundled())
} }
var parsed: Trace?
let parse = seconds {
    let file = SourceFile(path: "requests.trace", text: try! String(contentsOf: folder.appendingPathComponent("requests.trace"), encoding: .utf8))
    let (trace, problems) = TraceParser.parse(file)
    precondition(problems.isEmpty, "\(problems.prefix(3).map(\.message))")
    parsed = trace
}
// Streamed, as `webpolicy simulate` runs: results are counted, not kept.
var simulated = 0
var blocked = 0
let simulate = seconds {
    simulator!.run(parsed!) { result in
        simulated += 1
        if result.verdict == .block { blocked += 1 }
    }
}
// The floor any simulator stands on, measured in the same run so that the ratio survives a
// noisy machine: read every request's URL bytes once (an FNV-1a hash of each).
var checksum: UInt64 = 0
let floor = seconds {
    for entry in parsed!.entries {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in entry.url.requestString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        checksum ^= hash
    }
}
// For profiling: WEBPOLICY_BENCH_REPEAT=N runs the simulation N more times, so it dominates a profile.
for _ in 0..<(Int(ProcessInfo.processInfo.environment["WEBPOLICY_BENCH_REPEAT"] ?? "") ?? 0) { simulator!.run(parsed!) { _ in } }
var usage = rusage()
#if os(Linux)
getrusage(RUSAGE_SELF.rawValue, &usage)
#else
getrusage(RUSAGE_SELF, &usage)
#endif
#if os(Linux)
let peakMB = Double(usage.ru_maxrss) / 1024
#else
let peakMB = Double(usage.ru_maxrss) / 1_048_576
#endif
print("webpolicy-simulate-bench: \(rules) policy rules (\(loweredCount) after sugar), \(requests) trace lines (\(simulated) requests, \(blocked) blocked)")
print(String(format: "  load + lint + prepare the policy   %7.2f s", prepare))
print(String(format: "  parse the trace                    %7.2f s  %9.0f lines/s", parse, Double(requests) / parse))
print(String(format: "  simulate, one core                 %7.2f s  %9.0f requests/s", simulate, Double(simulated) / simulate))
print(String(format: "  baseline: hash every URL once      %7.2f s  (simulate = %.1fx; checksum %llx)", floor, simulate / floor, checksum & 0xFFFF))
print(String(format: "  peak memory                        %7.0f MB", peakMB))
