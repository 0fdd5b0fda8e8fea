import ArgumentParser
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

enum RulesFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, markdown
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the lint rules, or explain one.",
        discussion: "docs/rules.md is `webpolicy rules --format markdown`."
    )

    @Argument(help: "A rule id to explain.")
    var id: String?

    @Option(help: "Output format: text, json, markdown.")
    var format: RulesFormat = .text

    func run() throws {
        let rules = BuiltInRules.descriptions + AuditRules.descriptions
        if let id {
            guard let rule = rules.first(where: { $0.id == id }) else {
                var message = "unknown rule '\(id)'"
                if let suggestion = BuiltInRules.closestID(to: id) { message += "; did you mean '\(suggestion)'?" }
                throw InputError(message)
            }
            print(RuleDocumentation.explanation(of: rule), terminator: "")
            return
        }
        switch format {
        case .text: print(RuleDocumentation.table(rules), terminator: "")
        case .json: print(RuleDocumentation.json(rules), terminator: "")
        case .markdown: print(RuleDocumentation.markdown(rules), terminator: "")
        }
    }
}
