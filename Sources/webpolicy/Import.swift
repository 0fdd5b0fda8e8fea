import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a WebKit content-blocker list (JSON) into a policy.",
        discussion: """
        The list is checked as WebKit's parser checks it: a list WebKit would refuse is reported \
        rule by rule, with line and column in the JSON file, and nothing is written (exit 1). \
        Keys and rules WebKit ignores are left out with a warning. The policy's content rules \
        compile back to the same list; target.ios is the lowest iOS whose WebKit has every \
        feature the list uses (at least 15.0) unless --target says otherwise. The new policy is \
        linted, and its findings are shown too. Diagnostics go to standard error.
        """
    )

    @Argument(help: "The content-blocker list (a JSON array of rules).", completion: .file(extensions: ["json"]))
    var list: String

    @Option(name: [.short, .long], help: "Where to write the policy (default, or -: standard output).", completion: .file(extensions: ["yaml", "yml"]))
    var output: String?

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    @Option(help: "The policy's name (default: the list's file name).")
    var name: String?

    @Option(help: "The policy's target.ios, e.g. 16.4.")
    var target: String?

    @Option(help: "A JSON Schema path or URL for the policy's yaml-language-server modeline.")
    var schema: String?

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: list, isDirectory: &isDirectory) else { throw InputError("no such file: \(list)") }
        if isDirectory.boolValue { throw InputError("\(list) is a folder; import takes one content-blocker list") }
        var options = ContentBlockerImporter.Options(name: name, schemaReference: schema)
        if let target {
            guard let version = OSVersion(parsing: target), version >= .minimumSupported else {
                throw InputError("--target must be an iOS version of \(OSVersion.minimumSupported) or later, like 16.4; got '\(target)'")
            }
            options.target = version
        }
        let destination = output == "-" ? nil : output
        if let destination, !force, FileManager.default.fileExists(atPath: destination) {
            throw InputError("\(destination) exists; pass --force to replace it")
        }
        let lintConfiguration = try configuration.load()

        var result = ContentBlockerImporter.importList(path: list, options: options)
        result.report = diagnostics.applied(to: result.report)
        diagnostics.showOnStandardError(result.report)
        guard let policyText = result.policyText, result.report.count(.error) == 0 else { throw ExitCode(ExitStatus.findings) }

        // What lint says of the new policy: a team sees at once what to tidy after migrating.
        let policyReport = diagnostics.applied(to: Linter(configuration: lintConfiguration).lint(text: policyText, path: destination ?? "<imported policy>"))
        diagnostics.showOnStandardError(policyReport)

        if let destination {
            try ArtefactWriter.writeFile(policyText, to: destination)
            print("wrote \(destination) (\(result.importedRules) content rules)")
        } else {
            print(policyText, terminator: "")
        }
        if policyReport.count(.error) > 0 { throw ExitCode(ExitStatus.findings) }
    }
}
