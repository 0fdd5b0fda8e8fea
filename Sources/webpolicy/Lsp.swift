import ArgumentParser
import WebPolicyBuildInfo
import WebPolicyKit
import WebPolicyLSP

struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Check policies as they are typed: a language server for editors (LSP over standard input and output).",
        discussion: """
        Started by an editor, not by hand (docs/editors.md sets up Neovim and VS Code). \
        Each open policy is linted from its unsaved text as 'webpolicy lint' lints the file — \
        the same rules, .webpolicy.yml and suppressions — and the findings of every file it \
        reads, its includes too, are shown in the editor. Exit codes: 0 after the editor's \
        shutdown and exit, 1 when the input ends without them or is not the protocol.
        """
    )

    @Option(help: ArgumentHelp("How long the typing must pause before a changed policy is linted again.", valueName: "milliseconds"))
    var debounce = 150

    func validate() throws {
        if !(0...10_000).contains(debounce) { throw ValidationError("--debounce is 0 to 10,000 milliseconds") }
    }

    func run() throws {
        let status = StdioServer.run(version: WebPolicyVersion.description(commit: String(cString: webpolicy_build_commit())), debounce: Double(debounce) / 1_000)
        if status != 0 { throw ExitCode(status) }
    }
}
