import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a policy into WebKit content-blocker JSON, an ATS Info.plist fragment and a runtime manifest.",
        discussion: """
        The policy is linted first; with any error nothing is written and the exit code is 1. \
        Files are named after the policy's name: NAME.content-rules.json (NAME.content-rules-1.json, \
        -2 … when the rules exceed WebKit's limit for the target), NAME.ats.plist and NAME.manifest.json. \
        Each file is written atomically. Diagnostics go to standard error.
        """
    )

    @Argument(help: "The policy file.", completion: .file(extensions: ["yaml", "yml"]))
    var policy: String

    @Option(name: [.short, .long], help: "The output folder, or - for the content-blocker JSON on standard output.")
    var output: String

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: policy, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError("\(policy) is a folder; compile takes one policy file")
        }
        var compiler = PolicyCompiler(configuration: try configuration.load())
        compiler.progress = TerminalProgress.observer()
        var result = try compiler.compile(path: policy)
        result.report = diagnostics.applied(to: result.report)
        diagnostics.showOnStandardError(result.report)
        guard !result.hasErrors, !result.artefacts.isEmpty else { throw ExitCode(ExitStatus.findings) }

        let lists = result.artefacts.filter { $0.kind == .contentRules }
        if output == "-" {
            guard lists.count == 1 else {
                throw InputError(lists.isEmpty ? "the policy has no content rules to print" : "the content rules split into \(lists.count) lists; write them to a folder with --output DIR")
            }
            print(lists[0].contents, terminator: "")
            return
        }
        try ArtefactWriter.write(result.artefacts, to: output, slug: result.slug)
        for artefact in result.artefacts {
            let path = (output as NSString).appendingPathComponent(artefact.fileName)
            print("wrote \(path)")
        }
    }
}
