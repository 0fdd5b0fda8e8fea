import ArgumentParser
import WebPolicyBuildInfo
import WebPolicyKit
import WebPolicyLSP

struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Check policies as they are typed: a language server for editors (LSP over standard input and output).",
        discussion: """
        Started by an editor, not by hand (docs/editors.md sets up VS Code, Neovim and Zed). \
        Each open policy is linted from its unsaved text as 'webpolicy lint' lints the file — \
        the same rules, .webpolicy.yml and suppressions — and the findings of every file it \
        reads, its includes too, are shown in the editor. Exit codes: 0 after the editor's \
        shutdown and exit, 1 when the input ends without them or is not the protocol.
        """
    )

    func run() throws {
        let status = StdioServer.run(version: WebPolicyVersion.description(commit: String(cString: webpolicy_build_commit())))
        if status != 0 { throw ExitCode(status) }
    }
}
