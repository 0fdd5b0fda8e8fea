import ArgumentParser
import Foundation
import WebPolicyBuildInfo
import WebPolicyKit
import WebPolicyRuntime

/// The root command. It only lists subcommands; `lint` runs when none is named.
@main
struct WebPolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webpolicy",
        abstract: "Lint, compile and simulate web-view policies for iOS apps.",
        discussion: "Exit codes: 0 clean, 1 findings, 2 usage or input error.",
        version: WebPolicyVersion.description(commit: String(cString: webpolicy_build_commit())),
        subcommands: [Lint.self, Compile.self, Simulate.self, Diff.self, Explain.self, Audit.self, MergeSummaries.self, Import.self, Verify.self, Rules.self, Init.self, Schema.self, Cache.self, BuildResources.self, Lsp.self],
        defaultSubcommand: Lint.self
    )

    /// Runs the command with webpolicy's exit codes: usage errors (which swift-argument-parser
    /// reports as 64) become 2, like every other input error.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as InputError {
            FileHandle.standardError.write(Data("webpolicy: error: \(error.message)\n".utf8))
            Foundation.exit(ExitStatus.inputError)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            if code == .validationFailure || code.rawValue == EX_USAGE {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.inputError)
            }
            exit(withError: error)
        }
    }
}

/// webpolicy's exit codes, the same for every subcommand.
enum ExitStatus {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let inputError: Int32 = 2
}
