import BenchSupport
import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The simulate benchmark on a real list (docs/benchmarks.md): every figure next to a
/// baseline measured in the same run — reading the trace, and Brave's ad-block engine (the
/// `adblock` package on PyPI) checking the same requests against the same filters.
struct RealListBenchmark {
    let list: String
    let abp: String?
    let requests: Int
    let largeMegabytes: Int

    /// The `webpolicy` built next to this benchmark.
    static var webpolicy: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("webpolicy").path
    }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-simulate-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard FileManager.default.isExecutableFile(atPath: Self.webpolicy) else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "build webpolicy first: swift build -c release"])
        }
        let listData = try Data(contentsOf: URL(fileURLWithPath: list))
        let generator = RealisticTrace(vocabulary: try RealisticTrace.Vocabulary(list: listData))
        let tracePath = folder.appendingPathComponent("requests.trace").path
        let pages = try generator.write(requests: requests, toFile: tracePath)
        let traceBytes = (try FileManager.default.attributesOfItem(atPath: tracePath)[.size] as? Int) ?? 0
        let ruleCount = (try JSONSerialization.jsonObject(with: listData) as? [Any])?.count ?? 0
        print("webpolicy-simulate-bench: \((list as NSString).lastPathComponent) (\(Self.count(ruleCount)) rules), \(Self.count(requests)) realistic requests on \(Self.count(pages)) pages, trace \(Self.megabytes(traceBytes)), \(ProcessInfo.processInfo.activeProcessorCount) cores")

        // Baseline: reading the trace and counting its lines, what any tool pays.
        var lines = 0
        let read = try CommandTimer.seconds {
            let data = try Data(contentsOf: URL(fileURLWithPath: tracePath))
            lines = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        row("baseline: read the trace, count lines", read, "\(Self.rate(Double(lines) / read)) lines/s")

        // End to end, as a user runs it: trace file in, summary out. The first run builds the
        // list's engine and leaves its image in a cache folder (cold); the next ones map it (warm).
        let cache = folder.appendingPathComponent("engine-cache").path
        let simulate = ["--content-rules", list, "--format", "summary", "--cache-dir", cache]
        let cold = try CommandTimer.run(Self.webpolicy, ["simulate", tracePath] + simulate).0
        let startUp = try CommandTimer.run(Self.webpolicy, ["simulate", "-"] + simulate, stdin: "/dev/null").0
        // Each warm run is followed by a run of Brave's engine on the same requests (through
        // its Python binding): the machine's speed drifts over a minute, and a ratio of runs
        // made side by side does not drift with it.
        var runs: [CommandTimer.Measurement] = []
        var braveRuns: [BraveAdblock.Result] = []
        var braveSkipped = abp == nil ? "no --abp FILTERS given" : nil
        for _ in 0..<3 {
            runs.append(try CommandTimer.run(Self.webpolicy, ["simulate", tracePath] + simulate).0)
            guard let abp, braveSkipped == nil else { continue }
            switch BraveAdblock.run(filters: abp, trace: tracePath, scratch: folder) {
            case .success(let result): braveRuns.append(result)
            case .failure(let reason): braveSkipped = "\(reason)"
            }
        }
        let endToEnd = runs.sorted { $0.seconds < $1.seconds }[1]
        guard endToEnd.status == 0 || endToEnd.status == 1, let summary = Self.summary(endToEnd.output), Self.summary(cold.output)?.verdicts == summary.verdicts else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "simulate failed: \(String(decoding: endToEnd.errors.suffix(2000), as: UTF8.self))"])
        }
        let blocked = summary.verdicts[Verdict.allCases.firstIndex(of: .block)!]
        row("end to end, cache warm: webpolicy simulate, trace in, summary out", endToEnd.seconds,
            "\(Self.rate(Double(requests) / endToEnd.seconds)) requests/s, peak \(Self.megabytes(endToEnd.peakMegabytes)), \(Self.count(blocked)) blocked (\(Self.percent(blocked, requests))); median of 3")
        try jsonRow("page lines", tracePath, cache: cache, summarySeconds: endToEnd.seconds)
        row("  of which start-up (map the cached engine, no requests)", startUp.seconds, "peak \(Self.megabytes(startUp.peakMegabytes))")
        row("end to end, cache cold (first run: builds and caches the engine)", cold.seconds,
            "\(Self.rate(Double(requests) / cold.seconds)) requests/s, peak \(Self.megabytes(cold.peakMegabytes))")
        // The same requests in the other shapes traces come in, each end to end beside Brave's
        // check loop on the page-line form (the same requests): `top=` on every subresource
        // line (the same verdicts, checked), page lines mixed with `top=` and `frame=`, and a
        // browser's HAR export of the same requests (the same verdicts, checked).
        let pageLines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        let shapes: [(name: String, file: String, write: (String) throws -> Void, sameVerdicts: Bool)] = [
            ("top= on every subresource line", "shape.trace", { try TraceShapes.write(TraceShapes.topForm(pageLines), to: $0) }, true),
            ("page lines mixed with top= and frame=", "shape.trace", { try TraceShapes.write(TraceShapes.mixedForm(pageLines), to: $0) }, false),
            ("a HAR export (one entry a line)", "shape.har", { try TraceShapes.writeHAR(pageLines, to: $0) }, true),
        ]
        for (name, file, write, sameVerdicts) in shapes {
            let shapePath = folder.appendingPathComponent(file).path
            try write(shapePath)
            let shapeBytes = (try FileManager.default.attributesOfItem(atPath: shapePath)[.size] as? Int) ?? 0
            defer { try? FileManager.default.removeItem(atPath: shapePath) }
            var shapeRuns: [CommandTimer.Measurement] = []
            var shapeBrave: [BraveAdblock.Result] = []
            for _ in 0..<3 {
                shapeRuns.append(try CommandTimer.run(Self.webpolicy, ["simulate", shapePath] + simulate).0)
                if let abp, braveSkipped == nil, case .success(let result) = BraveAdblock.run(filters: abp, trace: tracePath, scratch: folder) { shapeBrave.append(result) }
            }
            let shape = shapeRuns.sorted { $0.seconds < $1.seconds }[1]
            guard let shapeSummary = Self.summary(shape.output) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "simulate of the \(name) shape failed: \(String(decoding: shape.errors.suffix(2000), as: UTF8.self))"])
            }
            precondition(!sameVerdicts || shapeSummary.verdicts == summary.verdicts, "the \(name) shape gives other verdicts than the page-line form")
            var ratio = ""
            if shapeBrave.count == 3 {
                let paired = zip(shapeRuns, shapeBrave).map { Double(requests) / $0.seconds / (Double($1.requests) / $1.check) }.sorted()[1]
                ratio = String(format: "; %.2f× Brave's check loop (median of 3 pairs)", paired)
            }
            row("shape: \(name), end to end, cache warm", shape.seconds,
                "\(Self.rate(Double(requests) / shape.seconds)) requests/s, \(Self.megabytes(shapeBytes)) in, peak \(Self.megabytes(shape.peakMegabytes)), \(String(format: "%.2f", shape.seconds / endToEnd.seconds))× the page-line form\(ratio)")
            try jsonRow(name, shapePath, cache: cache, summarySeconds: shape.seconds)
        }

        // The floor: the same trace over a list of one rule that never matches — what reading,
        // parsing, canonicalising and counting cost before any real filter is matched.
        let oneRule = folder.appendingPathComponent("one-rule.json").path
        try Data(#"[{"trigger":{"url-filter":"never-matches-anything-0a1b2c"},"action":{"type":"block"}}]"#.utf8).write(to: URL(fileURLWithPath: oneRule))
        let floorArguments = ["simulate", tracePath, "--content-rules", oneRule, "--format", "summary", "--cache-dir", cache]
        _ = try CommandTimer.run(Self.webpolicy, floorArguments)
        let floor = try (0..<3).map { _ in try CommandTimer.run(Self.webpolicy, floorArguments).0 }.sorted { $0.seconds < $1.seconds }[1]
        row("floor: end to end over a list of one rule that never matches", floor.seconds,
            "\(Self.rate(Double(requests) / floor.seconds)) requests/s, peak \(Self.megabytes(floor.peakMegabytes)); median of 3")

        // The inner loop: the list loaded and the trace parsed in memory first.
        var simulator: Simulator?
        let load = try CommandTimer.seconds {
            let session = SimulationSession(contentRulesPath: list)
            simulator = try session.bareSimulator()
        }
        guard var simulator else { throw CocoaError(.fileReadCorruptFile) }
        row("inner loop: load the list", load, "")
        var entries: [TraceEntry] = []
        let parse = try CommandTimer.seconds {
            let stream = try TraceStream(path: tracePath)
            while let block = stream.nextEntries() { entries += block }
        }
        row("inner loop: parse the trace, all cores", parse, "\(Self.rate(Double(entries.count) / parse)) lines/s")
        let trace = Trace(file: SourceFile(path: tracePath, text: ""), policyPath: nil, policyRange: nil, entries: entries)
        var innerBlocked = 0
        let allCores = CommandTimer.seconds { simulator.run(trace) { if $0.verdict == .block { innerBlocked += 1 } } }
        row("inner loop: simulate, all cores", allCores, "\(Self.rate(Double(entries.count) / allCores)) requests/s")
        var tallied = Tally()
        let countedAllCores = CommandTimer.seconds { tallied = simulator.tally(trace) }
        row("inner loop: counted (what a summary runs), all cores", countedAllCores, "\(Self.rate(Double(entries.count) / countedAllCores)) requests/s")
        simulator.parallelism = 1
        let materialisedOneCore = CommandTimer.seconds { simulator.run(trace) { _ in } }
        row("inner loop: a result for every request, one core", materialisedOneCore, "\(Self.rate(Double(entries.count) / materialisedOneCore)) requests/s")
        let oneCore = CommandTimer.seconds { _ = simulator.tally(trace) }
        row("inner loop: counted, one core", oneCore, "\(Self.rate(Double(entries.count) / oneCore)) requests/s")
        precondition(innerBlocked == blocked, "the inner loop and the command line disagree: \(innerBlocked) and \(blocked) blocked")
        precondition(tallied.verdicts == summary.verdicts, "counting and the command line disagree")
        // For profiling: WEBPOLICY_BENCH_REPEAT=N runs the one-core inner loop N more times and
        // stops, so that it dominates a `perf record` of the benchmark.
        if let repeats = Int(ProcessInfo.processInfo.environment["WEBPOLICY_BENCH_REPEAT"] ?? "") {
            simulator.parallelism = Int(ProcessInfo.processInfo.environment["WEBPOLICY_BENCH_THREADS"] ?? "") ?? 1
            let repeated = CommandTimer.seconds { for _ in 0..<repeats { _ = simulator.tally(trace) } }
            row("repeated inner loop, \(simulator.parallelism) thread(s)", repeated, "\(Self.rate(Double(entries.count * repeats) / repeated)) requests/s")
            return
        }
        entries = []

        // Canonicalising the trace's URLs, one core, beside ada (Node.js's URL parser) on the
        // same URLs: the part of the trace path that any URL-based tool pays.
        let urls = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", maxSplits: 2)
            return fields.count >= 2 ? String(fields[1]) : nil
        }
        let urlsPath = folder.appendingPathComponent("urls.txt").path
        try Data(urls.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: urlsPath))
        var parsed = 0
        let canonicalise = (0..<3).map { _ in
            CommandTimer.seconds { parsed = urls.reduce(0) { count, url in if case .success = CanonicalURL.parse(url) { return count + 1 } else { return count } } }
        }.min() ?? 0
        precondition(parsed == urls.count, "a trace URL did not parse")
        let perURL = canonicalise / Double(urls.count)
        row("canonicalise the trace's URLs, one core (best of 3)", canonicalise, String(format: "%.0f ns a URL", perURL * 1e9))
        var ada: AdaURL.Result?
        switch AdaURL.run(urls: urlsPath) {
        case .success(let result):
            ada = result
            row("ada (can-ada), the same URLs, Python's per-call cost taken off", result.perURL * Double(result.urls),
                String(format: "%.0f ns a URL (Python's loop and call: %.0f ns a URL, subtracted)", result.perURL * 1e9, result.overhead / Double(result.urls) * 1e9))
            row("ada's can_parse (its parse, no result written out), the same way", result.validatePerURL * Double(result.urls),
                String(format: "%.0f ns a URL", result.validatePerURL * 1e9))
        case .failure(let reason):
            print("  ada skipped: \(reason)")
        }

        // Brave's engine on the same requests: its median run of the three made beside the warm ones.
        var brave: BraveAdblock.Result?
        if braveRuns.count == runs.count {
            let result = braveRuns.sorted { $0.check < $1.check }[1]
            brave = result
            row("Brave: \(result.engine), build the engine from the filters", result.build, "")
            row("Brave: check loop, one core (requests read into memory first)", result.check,
                "\(Self.rate(Double(result.requests) / result.check)) requests/s, \(Self.count(result.blocked)) blocked (\(Self.percent(result.blocked, result.requests))); median of 3")
            row("Brave: end to end (Python start, build, read, check)", result.wall, "\(Self.rate(Double(result.requests) / result.wall)) requests/s, peak \(Self.megabytes(result.peakMegabytes))")
        } else {
            print("  Brave's engine skipped: \(braveSkipped ?? "a run failed")")
        }

        // JSON output on the first 20,000 requests.
        let jsonRequests = min(20_000, requests)
        let jsonTrace = folder.appendingPathComponent("json.trace").path
        try generator.write(requests: jsonRequests, toFile: jsonTrace)
        let (json, jsonBytes) = try CommandTimer.run(Self.webpolicy, ["simulate", jsonTrace, "--content-rules", list, "--format", "json", "--cache-dir", cache], discardOutput: false)
        row("JSON output, \(Self.count(jsonRequests)) requests", json.seconds, "\(Self.count(jsonBytes / jsonRequests)) bytes per request, \(Self.megabytes(jsonBytes)) in all, peak \(Self.megabytes(json.peakMegabytes))")

        // Memory stays flat as the trace grows.
        if largeMegabytes > 0 {
            let largeTrace = folder.appendingPathComponent("large.trace").path
            let largeRequests = Int(Double(requests) * Double(largeMegabytes) * 1_048_576 / Double(max(traceBytes, 1)))
            try generator.write(requests: largeRequests, toFile: largeTrace)
            let largeBytes = (try FileManager.default.attributesOfItem(atPath: largeTrace)[.size] as? Int) ?? 0
            let large = try CommandTimer.run(Self.webpolicy, ["simulate", largeTrace] + simulate).0
            row("flat memory: \(Self.megabytes(largeBytes)) trace, \(Self.count(largeRequests)) requests", large.seconds,
                "peak \(Self.megabytes(large.peakMegabytes)) (\(Self.megabytes(endToEnd.peakMegabytes)) at \(Self.count(requests)))")
            try? FileManager.default.removeItem(atPath: largeTrace)
        }

        print("ratios, same run:")
        print("  end to end = \(String(format: "%.1f", read / endToEnd.seconds * 100))% of reading speed (\(String(format: "%.0f", endToEnd.seconds / read))× the read)")
        print(String(format: "  floor (one rule) = %.2f s; the real list adds %.2f s", floor.seconds, endToEnd.seconds - floor.seconds))
        if let ada {
            print(String(format: "  canonicalisation = %.2f× ada's time a URL, %.2f× its can_parse (target: within 3×)", perURL / ada.perURL, perURL / ada.validatePerURL))
        }
        if let brave {
            let braveRate = Double(brave.requests) / brave.check
            let cores = ProcessInfo.processInfo.activeProcessorCount
            // Each warm run against the Brave run made right after it; the median of the three.
            let paired = zip(runs, braveRuns).map { Double(requests) / $0.seconds / (Double($1.requests) / $1.check) }.sorted()[1]
            print(String(format: "  end to end, cache warm (start-up, parse, simulate; %d cores) = %.2f× Brave's check loop (one core, requests in memory; median of 3 side-by-side pairs); cold %.2f×", cores,
                         paired, Double(requests) / cold.seconds / braveRate))
            print(String(format: "  inner loop, one core: %.2f µs a request; Brave's check loop %.2f µs", oneCore / Double(requests) * 1e6, brave.check / Double(brave.requests) * 1e6))
            print(String(format: "  inner loop, one core = %.2f× Brave's check loop, one core; on %d cores = %.2f×", Double(requests) / oneCore / braveRate, cores, Double(requests) / allCores / braveRate))
            print(String(format: "  end to end = %.2f× Brave end to end (Python start, build, read, check)", (Double(requests) / endToEnd.seconds) / (Double(brave.requests) / brave.wall)))
        }
    }

    /// The same shape with `--format json` (every request a line; written to /dev/null, as a
    /// pipe to a consumer would take it), beside its summary's time (target: within 2×).
    private func jsonRow(_ name: String, _ path: String, cache: String, summarySeconds: Double) throws {
        var runs: [CommandTimer.Measurement] = []
        for _ in 0..<3 {
            runs.append(try CommandTimer.run(Self.webpolicy, ["simulate", path, "--content-rules", list, "--format", "json", "--cache-dir", cache], discardOutput: true).0)
        }
        let json = runs.sorted { $0.seconds < $1.seconds }[1]
        guard json.status == 0 || json.status == 1 else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "simulate --format json of the \(name) shape failed: \(String(decoding: json.errors.suffix(2000), as: UTF8.self))"])
        }
        row("shape: \(name), --format json", json.seconds,
            "peak \(Self.megabytes(json.peakMegabytes)), \(String(format: "%.2f", json.seconds / summarySeconds))× its summary (target ≤ 2×); median of 3")
    }

    private func row(_ label: String, _ seconds: Double, _ detail: String) {
        print("  " + label.padding(toLength: 62, withPad: " ", startingAt: 0) + String(format: "%7.2f s  ", seconds) + detail)
    }

    static func summary(_ output: Data) -> SimulationSummary? {
        SimulationSummary(jsonLine: String(decoding: output, as: UTF8.self))
    }

    static func count(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
    }

    static func rate(_ value: Double) -> String { count(Int(value.rounded())) }
    static func megabytes(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }
    static func megabytes(_ value: Double) -> String { String(format: "%.0f MB", value) }
    static func percent(_ part: Int, _ whole: Int) -> String { String(format: "%.1f%%", Double(part) / Double(max(whole, 1)) * 100) }
}
