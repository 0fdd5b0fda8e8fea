import BenchSupport
import Foundation

/// `webpolicy-bench --hosts N`: the big inputs a team meets when it pastes a vendor's host list
/// into a policy — one content rule whose `hosts:` holds N hosts, and the same N hosts as N
/// rules of their own, each with an id and a review note (about 400 bytes a host: 100,000 make a
/// 40 MB policy) — through the whole commands: lint, compile (time, peak memory, the engine
/// image against the list it is built from), and simulate of a trace of N requests, cold (the
/// first run builds and caches the engine) and warm, with the cache's size. The baseline,
/// same run: reading the policy file.
struct HostListBenchmark {
    let hosts: Int

    func run(in folder: URL) throws {
        let names = (0..<hosts).map { "h\(String(format: "%06d", $0)).ads\($0 % 89).example-cdn.com" }
        let shapes: [(name: String, text: String)] = [
            ("one rule, hosts: [\(hosts) hosts]", "webpolicy: 1\nname: hosts\ntarget: { ios: \"16.0\" }\ncontent-rules:\n  - id: vendor-hosts\n    action: block\n    hosts: [\(names.joined(separator: ", "))]\n"),
            ("\(hosts) rules, a host and a note each", "webpolicy: 1\nname: hosts\ntarget: { ios: \"16.0\" }\ncontent-rules:\n" + names.enumerated().map { index, name in
                "  - id: block-\(index)\n    description: From the vendor's list \(index / 1000), entry \(index); reviewed by the privacy team with the rest of the network's hosts, kept until the vendor removes it and the quarterly review confirms it is gone.\n    action: block\n    hosts: [\(name)]\n"
            }.joined()),
        ]
        // A fixed sequence (Knuth's MMIX LCG): every run replays the same requests.
        var state: UInt64 = 0x4057_11A7
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var trace = "policy: hosts.yaml\n"
        for page in 0..<(hosts / 5) {
            trace += "page https://news\(page % 500).example.org/article\(page)\n"
            for _ in 0..<4 {
                let index = Int(next() % UInt64(hosts + hosts / 2))
                trace += "script https://h\(String(format: "%06d", index)).ads\(index % 89).example-cdn.com/t.js\n"
            }
        }
        try trace.write(to: folder.appendingPathComponent("hosts.trace"), atomically: true, encoding: .utf8)
        print("webpolicy-bench --hosts \(hosts): whole commands, release build")
        for shape in shapes {
            let policy = folder.appendingPathComponent("hosts.yaml")
            try shape.text.write(to: policy, atomically: true, encoding: .utf8)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try Data(contentsOf: policy)
            let read = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print("  \(shape.name): \(String(format: "%.1f", Double(shape.text.utf8.count) / 1e6)) MB of YAML, read in \(String(format: "%.3f", read)) s")
            let lint = try CommandTimer.run(RealListBenchmark.webpolicy, ["lint", policy.path], discardOutput: true).0
            print(String(format: "    lint                 %6.2f s  peak %5.0f MB", lint.seconds, lint.peakMegabytes))
            let output = folder.appendingPathComponent("compiled")
            try? FileManager.default.removeItem(at: output)
            let compile = try CommandTimer.run(RealListBenchmark.webpolicy, ["compile", policy.path, "--output", output.path], discardOutput: true).0
            guard compile.status == 0 else { throw BenchFailure("compile exited \(compile.status)") }
            let sizes = try FileManager.default.contentsOfDirectory(atPath: output.path).reduce(into: [String: Int]()) { sizes, name in
                sizes[name] = (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            }
            let list = sizes.filter { $0.key.hasSuffix(".json") && !$0.key.hasSuffix(".manifest.json") }.values.reduce(0, +)
            let image = sizes.filter { $0.key.hasSuffix(".engine") }.values.reduce(0, +)
            print(String(format: "    compile              %6.2f s  peak %5.0f MB  image %.1f MB = %.2f× the list's %.1f MB", compile.seconds, compile.peakMegabytes,
                         Double(image) / 1e6, Double(image) / Double(max(list, 1)), Double(list) / 1e6))
            let cache = folder.appendingPathComponent("cache")
            try? FileManager.default.removeItem(at: cache)
            let arguments = ["simulate", "--cache-dir", cache.path, folder.appendingPathComponent("hosts.trace").path]
            let cold = try CommandTimer.run(RealListBenchmark.webpolicy, arguments, discardOutput: true).0
            let warm = try CommandTimer.run(RealListBenchmark.webpolicy, arguments, discardOutput: true).0
            let cached = (try FileManager.default.contentsOfDirectory(atPath: cache.path)).reduce(0) { total, name in
                total + ((try? FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
            }
            print(String(format: "    simulate %d requests cold %6.2f s  peak %5.0f MB; warm %.2f s  peak %.0f MB; cache %.1f MB", hosts, cold.seconds, cold.peakMegabytes,
                         warm.seconds, warm.peakMegabytes, Double(cached) / 1e6))
        }
    }
}
