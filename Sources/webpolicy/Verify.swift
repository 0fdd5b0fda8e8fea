import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

extension VerifyFormat: ExpressibleByArgument {}

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
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
        print(Verifier.rendered(entries, format), terminator: "")
        let refused = entries.contains { $0.webKit != nil }
        if refused || lint.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }
    }
}
