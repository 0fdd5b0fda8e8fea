import ArgumentParser
import WebPolicyKit

/// `webpolicy schema`: the policy format's JSON Schema, for a repository's editors.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of the policy format, for editor completion.",
        discussion: """
        `webpolicy init` writes it to policies/webpolicy.schema.json and starts the policy with \
        `# yaml-language-server: $schema=webpolicy.schema.json`, which the YAML language server \
        (VS Code's YAML extension, Neovim, JetBrains) reads to complete keys and values and flag \
        mistakes as you type. After upgrading webpolicy, refresh it: \
        webpolicy schema > policies/webpolicy.schema.json
        """
    )

    func run() throws {
        print(Scaffold.schema, terminator: "")
    }
}
