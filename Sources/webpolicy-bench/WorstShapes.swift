import BenchSupport
import Foundation

/// `webpolicy-bench --list LIST.json` also lints the input shapes that were once quadratic, as
/// whole `webpolicy lint` commands, each at three sizes so that growth shows (1×, 2×, 4×:
/// linear is twice and four times the time), against a 2-second target:
///
/// - a minified list (one line) with a finding for two rules in three: every finding once
///   copied and counted the whole line to quote it;
/// - identical rules (37,500 to 150,000): a finding each;
/// - rules over 100 distinct filters, each with its own `if-domain`;
/// - the real list minified, a quarter, a half and all of it.
struct WorstShapes {
    let list: String
    let iterations: Int

    static let target = 2.0

    func run(in folder: URL) throws {
        print("worst shapes: webpolicy lint FILE (human output), median of \(iterations); target < \(Int(Self.target)) s, linear growth")
        let real = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: list))) as? [Any] ?? []
        let shapes: [(name: String, make: (Int) throws -> Data)] = [
            ("minified, 2 findings in 3 rules (5,000 rules × k)", { scale in
                let rules = (0..<(5_000 * scale)).map { index in #"{"trigger":{"url-filter":"ads-\#(index / 3)\\.example"},"action":{"type":"block"}}"# }
                return Data(("[" + rules.joined(separator: ",") + "]").utf8)
            }),
            ("identical rules (37,500 × k)", { scale in
                let rule = "  {\n    \"trigger\": {\n      \"url-filter\": \"tracker\"\n    },\n    \"action\": {\n      \"type\": \"block\"\n    }\n  }"
                return Data(("[\n" + Array(repeating: rule, count: 37_500 * scale).joined(separator: ",\n") + "\n]\n").utf8)
            }),
            ("100 distinct filters, if-domain each (5,000 rules × k)", { scale in
                let rules = (0..<(5_000 * scale)).map { index in
                    #"{"trigger":{"url-filter":"filter-\#(index % 100)/","if-domain":["site\#(index).example"]},"action":{"type":"block"}}"#
                }
                return Data(("[" + rules.joined(separator: ",") + "]").utf8)
            }),
            ("\((list as NSString).lastPathComponent) minified (a quarter × k)", { scale in
                let part = Array(real.prefix(real.count * scale / 4))
                return try JSONSerialization.data(withJSONObject: part)
            }),
        ]
        for shape in shapes {
            var times: [Double] = []
            var line = "  " + shape.name.padding(toLength: 56, withPad: " ", startingAt: 0)
            for scale in [1, 2, 4] {
                let path = folder.appendingPathComponent("shape-\(scale).json").path
                try shape.make(scale).write(to: URL(fileURLWithPath: path))
                var runs: [CommandTimer.Measurement] = []
                for _ in 0..<iterations { runs.append(try CommandTimer.run(RealListBenchmark.webpolicy, ["lint", path], discardOutput: true).0) }
                let run = runs.sorted { $0.seconds < $1.seconds }[runs.count / 2]
                guard run.status == 0 || run.status == 1 else { throw BenchFailure("lint of \(shape.name) ×\(scale) exited \(run.status)") }
                times.append(run.seconds)
                line += String(format: "  %d×: %5.2f s", scale, run.seconds)
            }
            line += String(format: "  growth %.1f× and %.1f×%@", times[1] / times[0], times[2] / times[0], times[2] < Self.target ? "" : "  (over the target)")
            print(line)
        }
    }
}
