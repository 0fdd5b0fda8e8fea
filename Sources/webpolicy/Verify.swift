import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

enum VerifyFormat: String, CaseIterable, ExpressibleByArgument {
    case human, json
}

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile content-blocker lists with real WebKit (WebKitGTK) and compare its verdict with webpolicy's.",
        discussion: """
        For a policy, its lists as compile emits them (even when lint finds errors, so both \
        verdicts show); for a .json file, the list itself. Each line gives webpolicy's verdict \
        (its port of WebKit's parser, and lint's error count for a policy) next to WebKit's. \
        Needs WebKitGTK 4.1 and PyGObject (Debian: gir1.2-webkit2-4.1 python3-gi). Exit codes: \
        0 WebKit compiles every list and lint finds no error, 1 otherwise, 2 WebKit is not \
        installed or an input cannot be read.
        """
    )

    @Argument(help: "Policies (.yaml) or content-blocker lists (.json).", completion: .file(extensions: ["yaml", "yml", "json"]))
    var inputs: [String] = []

    @Option(name: .customLong("content-rules"), help: "A content-blocker list, as simulate names one; repeat for several. Each is compiled on its own, as the app adds them.", completion: .file(extensions: ["json"]))
    var contentRules: [String] = []

    @Option(help: "Output format: human, json (one object per list and line).")
    var format: VerifyFormat = .human

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if inputs.isEmpty && contentRules.isEmpty { throw ValidationError("name at least one policy or list") }
        if let policy = contentRules.first(where: { InputKind.of(path: $0) == .policy }) {
            throw ValidationError("--content-rules takes content-blocker lists (JSON arrays); \(policy) is a policy: name it without --content-rules")
        }
    }

    func run() throws {
        if let reason = RealWebKit.unavailability() {
            throw InputError("real WebKit is not available: \(reason). \(RealWebKit.installHint)")
        }
        let (entries, lint) = try Verifier.verify(inputs + contentRules, configuration: configuration.load())
        diagnostics.showOnStandardError(LintReport(diagnostics: lint.diagnostics.filter { $0.severity == .error }, sources: lint.sources, lintedFiles: lint.lintedFiles))
        switch format {
        case .human: print(Self.human(entries), terminator: "")
        case .json: print(Self.json(entries), terminator: "")
        }
        let refused = entries.contains { $0.webKit != nil }
        if refused || lint.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }
    }

    static func verdict(_ error: String?) -> String { error.map { "refuses it: \"\($0)\"" } ?? "compiles it" }

    static func human(_ entries: [Verifier.Entry]) -> String {
        var output = ""
        for entry in entries {
            output += "\(entry.input) -> \(entry.list) (\(entry.rules) rule\(entry.rules == 1 ? "" : "s"))\n"
            let lint = entry.lintErrors.map { $0 == 0 ? "lint finds no error; " : "lint finds \($0) error\($0 == 1 ? "" : "s"); " } ?? ""
            output += "  webpolicy: \(lint)its WebKit parser \(verdict(entry.webpolicy))\n"
            output += "  WebKit:    \(verdict(entry.webKit))\(entry.agree ? "" : "   <- DISAGREE")\n"
        }
        let disagreements = entries.filter { !$0.agree }.count
        output += "\(entries.count) list\(entries.count == 1 ? "" : "s"), \(entries.filter { $0.webKit == nil }.count) compiled by WebKit, \(disagreements) disagreement\(disagreements == 1 ? "" : "s")\n"
        return output
    }

    static func json(_ entries: [Verifier.Entry]) -> String {
        entries.map { entry in
            JSONValue.object([
                ("input", .string(entry.input)), ("list", .string(entry.list)), ("rules", .int(entry.rules)),
                ("lintErrors", entry.lintErrors.map(JSONValue.int) ?? .null),
                ("webpolicy", entry.webpolicy.map(JSONValue.string) ?? .null),
                ("webkit", entry.webKit.map(JSONValue.string) ?? .null),
                ("agree", .bool(entry.agree)),
            ]).serialized(pretty: false) + "\n"
        }.joined()
    }
}
