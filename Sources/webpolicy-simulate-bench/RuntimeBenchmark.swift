import BenchSupport
import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// `webpolicy-simulate-bench --list LIST --abp FILTERS --runtime`: the app's side. The list is
/// imported and compiled as a team would ship it; then `RuntimePolicy(compiledDirectory:)` —
/// what the app pays at every launch — and the decision per request and per navigation, next
/// to baselines from the same run: reading the list (JSONSerialization), WebKit's own compile
/// of it (what the device pays once per list version), and Brave's engine on the same requests.
struct RuntimeBenchmark {
    let list: String
    let abp: String?
    let requests: Int

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpolicy-runtime-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listData = try Data(contentsOf: URL(fileURLWithPath: list))

        // Ship it: import, compile into a folder, as the app bundle would hold it.
        let imported = ContentBlockerImporter.importList(path: list)
        guard let policyText = imported.policyText else { throw BenchFailure("import failed") }
        let policyPath = folder.appendingPathComponent("imported.yaml").path
        let result = PolicyCompiler().compile(text: policyText, path: policyPath)
        guard !result.hasErrors else { throw BenchFailure("compile failed: \(result.report.diagnostics.first?.message ?? "")") }
        let compiled = folder.appendingPathComponent("compiled")
        try ArtefactWriter.write(result.artefacts, to: compiled.path, slug: "imported")
        let rules = imported.importedRules
        print("webpolicy-simulate-bench --runtime: \((list as NSString).lastPathComponent) (\(RealListBenchmark.count(rules)) rules) compiled into \(result.artefacts.count) files, \(ProcessInfo.processInfo.activeProcessorCount) cores; median of 3")

        let read = median { _ = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: list))) }
        row("baseline: JSONSerialization reads the list", read, "")
        var policy: RuntimePolicy?
        let startUp = median { policy = try? RuntimePolicy(compiledDirectory: compiled) }
        guard let policy else { throw BenchFailure("RuntimePolicy(compiledDirectory:) failed") }
        guard case .image = policy.listLoads.first?.source else { throw BenchFailure("the list was not loaded from its engine image: \(policy.listLoads)") }
        row("runtime start-up: RuntimePolicy(compiledDirectory:), in process", startUp, String(format: "%.3f× the read", startUp / read))
        // An app's launch: a process that loads the compiled folder and decides one request.
        let processes = try (0..<5).map { _ in try CommandTimer.run(CommandLine.arguments[0], ["--runtime-load", compiled.path]).0 }
        let process = processes.sorted { $0.seconds < $1.seconds }[2]
        let peak = processes.map(\.peakMegabytes).max() ?? 0
        row("app launch: load the compiled folder, decide one request (process)", process.seconds, String(format: "peak %.0f MB (target ≤ 64 MB); median of 5", peak))
        let imageBytes = result.artefacts.filter { $0.kind == .engineImage }.reduce(0) { $0 + $1.data.count }
        let listBytes = result.artefacts.filter { $0.kind == .contentRules }.reduce(0) { $0 + $1.data.count }
        print(String(format: "  engine image %.1f MB, the JSON list it is built from %.1f MB: %.2f× the list (target ≤ 1)",
                     Double(imageBytes) / 1_048_576, Double(listBytes) / 1_048_576, Double(imageBytes) / Double(max(listBytes, 1))))
        var braveLaunch: Double?
        if let abp {
            switch BraveAdblock.startUp(filters: abp, scratch: folder, runs: 5) {
            case .success(let brave):
                let median = brave.runs.sorted { $0.seconds < $1.seconds }[2]
                braveLaunch = median.seconds
                row("baseline: Brave's launch: deserialize, check one request", median.seconds,
                    String(format: "peak %.0f MB, its engine file %.1f MB (through Python: start and import included); median of 5",
                           brave.runs.map(\.peakMegabytes).max() ?? 0, Double(brave.engineBytes) / 1_048_576))
            case .failure(let reason):
                print("  Brave's launch skipped: \(reason)")
            }
        }
        var webkitSeconds: Double?
        switch WebKitCompile.measure(list: listData, scratch: folder, helperScript: WebKitCompileHelper.script) {
        case .success(let (webkit, accepted)):
            webkitSeconds = webkit.seconds
            row("baseline: WebKit (WebKitGTK) compiles the list (once per version)", webkit.seconds, accepted ? "compiled" : "refused")
        case .failure(let reason):
            print("  WebKit's compile skipped: \(reason)")
        }

        // The same realistic requests the simulate benchmark uses, as an app asks about them.
        let tracePath = folder.appendingPathComponent("requests.trace").path
        let pages = try RealisticTrace(vocabulary: try RealisticTrace.Vocabulary(list: listData)).write(requests: requests, toFile: tracePath)
        var questions: [RuntimeRequest] = []
        let stream = try TraceStream(path: tracePath)
        var page: String?
        while let block = stream.nextEntries() {
            for entry in block {
                let url = entry.url.description
                questions.append(RuntimeRequest(url: url, type: entry.typeName, mainDocumentURL: page))
                if entry.kind == .page { page = url }
            }
        }
        let navigations = questions.filter { $0.type == "page" }
        var blocked = 0
        let each = median {
            blocked = 0
            for question in questions where policy.evaluate(question).verdict == .block { blocked += 1 }
        }
        row("evaluate(_:), one core, \(RealListBenchmark.count(questions.count)) requests", each,
            String(format: "%.2f µs a request, %@ blocked", each / Double(questions.count) * 1e6, RealListBenchmark.count(blocked)))
        let navigation = median { for question in navigations { _ = policy.evaluate(question) } }
        row("evaluate(_:) of the \(RealListBenchmark.count(pages)) page navigations", navigation,
            String(format: "%.2f µs a navigation", navigation / Double(max(navigations.count, 1)) * 1e6))
        let sessions = median {
            var session = policy.makeSession()
            for question in questions {
                if question.type == "page" { session = policy.makeSession() }
                _ = session.evaluate(question)
            }
        }
        row("a Session per page (the web view's own state)", sessions, String(format: "%.2f µs a request", sessions / Double(questions.count) * 1e6))

        print("ratios, same run:")
        if let braveLaunch { print(String(format: "  app launch = %.2f× Brave's launch (deserialize + one check; target ≤ 1)", process.seconds / braveLaunch)) }
        print(String(format: "  start-up = %.3f× reading the list with JSONSerialization", startUp / read))
        if let webkitSeconds { print(String(format: "  start-up = %.2f× WebKit's own compile of the list (which the device does once per list version)", startUp / webkitSeconds)) }
        if let abp {
            switch BraveAdblock.run(filters: abp, trace: tracePath, scratch: folder) {
            case .success(let brave):
                let braveMicroseconds = brave.check / Double(brave.requests) * 1e6
                row("baseline: Brave \(brave.engine), check loop, one core", brave.check, String(format: "%.2f µs a request, build %.2f s", braveMicroseconds, brave.build))
                print(String(format: "  a decision = %.2f× Brave's check of the same request (%.2f µs and %.2f µs); start-up = %.2f× Brave's engine build",
                             each / Double(questions.count) * 1e6 / braveMicroseconds, each / Double(questions.count) * 1e6, braveMicroseconds, startUp / brave.build))
            case .failure(let reason):
                print("  Brave's engine skipped: \(reason)")
            }
        }
    }

    private func median(_ body: () -> Void) -> Double {
        (0..<3).map { _ in CommandTimer.seconds(body) }.sorted()[1]
    }

    private func row(_ label: String, _ seconds: Double, _ detail: String) {
        print("  " + label.padding(toLength: 66, withPad: " ", startingAt: 0) + String(format: "%7.3f s  ", seconds) + detail)
    }
}
