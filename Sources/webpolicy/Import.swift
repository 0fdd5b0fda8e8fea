import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert WebKit content-blocker lists (JSON) into policies.",
        discussion: """
        The list is checked as WebKit's parser checks it: a list WebKit would refuse is reported \
        rule by rule, with line and column in the JSON file, and nothing is written (exit 1). \
        Keys and rules WebKit ignores are left out with a warning. The policy's content rules \
        compile back to the same list; target.ios is the lowest iOS whose WebKit has every \
        feature the list uses (at least 15.0) unless --target says otherwise. The new policy is \
        linted, and its findings are shown too. Diagnostics go to standard error. Several \
        lists become several policies, one per list (WebKit evaluates each list on its own, so \
        their rules are not merged), written into the --output folder as NAME.yaml; if any \
        list fails, none is written. To keep a vendor's list as it is beside a policy, \
        reference it with content-rule-lists: instead.
        """
    )

    @Argument(help: "Content-blocker lists (JSON arrays of rules), each its own policy.", completion: .file(extensions: ["json"]))
    var lists: [String]

    @Option(name: [.short, .long], help: "Where to write the policy (default, or -: standard output); with several lists, a folder.", completion: .file(extensions: ["yaml", "yml"]))
    var output: String?

    @Flag(help: "Replace output files that exist.")
    var force = false

    @Option(help: "The policy's name (default: the list's file name); one list only.")
    var name: String?

    @Option(help: "The policy's target.ios, e.g. 16.4.")
    var target: String?

    @Option(help: "A JSON Schema path or URL for the policy's yaml-language-server modeline.")
    var schema: String?

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if lists.isEmpty { throw ValidationError("name a content-blocker list to import") }
        if lists.count > 1 {
            if name != nil { throw ValidationError("--name names one policy; several lists are named after their files") }
            if output == nil || output == "-" { throw ValidationError("several lists become several policies: give --output a folder to write them into") }
        }
    }

    func run() throws {
        for list in lists {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: list, isDirectory: &isDirectory) else { throw InputError("no such file: \(list)") }
            if isDirectory.boolValue { throw InputError("\(list) is a folder; import takes content-blocker list files") }
        }
        var options = ContentBlockerImporter.Options(name: name, schemaReference: schema)
        if let target {
            guard let version = OSVersion(parsing: target), version >= .minimumSupported else {
                throw InputError("--target must be an iOS version of \(OSVersion.minimumSupported) or later, like 16.4; got '\(target)'")
            }
            options.target = version
        }
        let destinations = try self.destinations()
        let lintConfiguration = try configuration.load()

        // Every list is converted and linted before anything is written.
        var policies: [(text: String, destination: String?, rules: Int)] = []
        var failed = false
        for (list, destination) in zip(lists, destinations) {
            var result = ContentBlockerImporter.importList(path: list, options: options)
            result.report = diagnostics.applied(to: result.report)
            diagnostics.showOnStandardError(result.report)
            guard let policyText = result.policyText, result.report.count(.error) == 0 else {
                failed = true
                continue
            }
            // What lint says of the new policy: a team sees at once what to tidy after migrating.
            let policyReport = diagnostics.applied(to: Linter(configuration: lintConfiguration).lint(text: policyText, path: destination ?? "<imported policy>"))
            diagnostics.showOnStandardError(policyReport)
            if policyReport.count(.error) > 0 { failed = true }
            policies.append((policyText, destination, result.importedRules))
        }
        if policies.count < lists.count { throw ExitCode(ExitStatus.findings) }
        for policy in policies {
            if let destination = policy.destination {
                try ArtefactWriter.writeFile(policy.text, to: destination)
                print("wrote \(destination) (\(policy.rules) content rules)")
            } else {
                print(policy.text, terminator: "")
            }
        }
        if failed { throw ExitCode(ExitStatus.findings) }
    }

    /// Where each list's policy goes: the --output file (or standard output) for one list;
    /// NAME.yaml in the --output folder for several.
    private func destinations() throws -> [String?] {
        guard lists.count > 1, let folder = output else {
            let destination = output == "-" ? nil : output
            if let destination, !force, FileManager.default.fileExists(atPath: destination) {
                throw InputError("\(destination) exists; pass --force to replace it")
            }
            return [destination]
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw InputError("\(folder) is a file; several lists are written into a folder")
        }
        var destinations: [String] = []
        for list in lists {
            let destination = (folder as NSString).appendingPathComponent(ContentBlockerImporter.defaultName(for: list) + ".yaml")
            if destinations.contains(destination) { throw InputError("two lists would both be written to \(destination); rename one") }
            if !force, FileManager.default.fileExists(atPath: destination) { throw InputError("\(destination) exists; pass --force to replace it") }
            destinations.append(destination)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return destinations
    }
}
