import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// What `WebPolicyBuildPlugin` runs during `swift build`; usable by any build system.
struct BuildResources: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build-resources",
        abstract: "Lint and compile a target's policies into resource folders and a Swift accessor (what WebPolicyBuildPlugin runs).",
        discussion: """
        Each policy is linted and compiled into a folder of its own under --output, named after \
        the file (app.webpolicy.yaml → app/), holding its content-rule lists and manifest: the \
        folder to give RuntimePolicy(compiledDirectory:). --swift writes a Swift file declaring \
        an enum WebPolicies with each policy's folder and its lists' identifiers and SHA-256s. \
        Diagnostics go to standard error as path:line:col: severity: message [rule], which Xcode \
        and SwiftPM show at the line; with any error nothing is written and the exit code is 1. \
        See docs/swiftpm.md.
        """
    )

    @Argument(help: "The target's policy files (*.webpolicy.yaml).", completion: .file(extensions: ["yaml", "yml"]))
    var policies: [String]

    @Option(name: [.short, .long], help: "The folder the policies' resource folders go into.")
    var output: String

    @Option(help: "The Swift file to write.")
    var swift: String

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        guard !policies.isEmpty else { throw InputError("no policies given") }
        let builder = PolicyResourceBuilder(configuration: try configuration.load())
        var result = try builder.build(policies)
        result.report = diagnostics.applied(to: result.report)
        diagnostics.showOnStandardError(result.report)
        guard !result.hasErrors else { throw ExitCode(ExitStatus.findings) }
        try builder.write(result, to: output, swiftFile: swift)
    }
}
