import Foundation
import PackagePlugin

/// Lints and compiles a target's `*.webpolicy.yaml` policies during `swift build` and Xcode
/// builds: each into a resource folder of the target (for `RuntimePolicy(compiledDirectory:)`),
/// plus a Swift file naming them (`WebPolicies`). A build command with declared inputs and
/// outputs, not a prebuild command — since Swift 6.1 those cannot run tools built from source
/// — so an unchanged policy does not run again. Findings appear as `path:line:col` lines.
@main
struct WebPolicyBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = module.sourceFiles.map(\.url)
        let policies = files.filter(PolicyFiles.isPolicy).sorted { $0.path < $1.path }
        let tool = try context.tool(named: "webpolicy").url
        return Self.commands(policies: policies, package: context.package.directoryURL, workDirectory: context.pluginWorkDirectoryURL, tool: tool)
            + Self.auditCommands(policies: policies, code: files.filter(PolicyFiles.isAuditedCode), target: target.name,
                                 package: context.package.directoryURL, workDirectory: context.pluginWorkDirectoryURL, tool: tool)
    }

    /// The target's own Swift and Objective-C checked against its policy (`webpolicy audit`), so
    /// the findings appear at the lines of code, as warnings or errors, and an error fails the
    /// build. Only for a target with one policy: with several, which view each governs is not
    /// in the files. The output is a Swift file holding a comment, written when the audit has
    /// no error, so an unchanged target is not audited again.
    static func auditCommands(policies: [URL], code: [URL], target: String, package: URL, workDirectory: URL, tool: URL) -> [Command] {
        guard policies.count == 1, let policy = policies.first, !code.isEmpty else { return [] }
        let stamp = workDirectory.appendingPathComponent("WebPolicyAudited.swift")
        var inputs = code + [policy] + PolicyFiles.includes(of: policy)
        var arguments = ["audit", "--policy", policy.path, "--color", "never", "--swift-stamp", stamp.path]
        if let configuration = PolicyFiles.configuration(in: package) {
            inputs.append(configuration)
            arguments += ["--config", configuration.path]
        } else {
            arguments.append("--no-config")
        }
        arguments += code.map(\.path).sorted()
        return [.buildCommand(displayName: "webpolicy: auditing \(target)'s code against \(policy.lastPathComponent)",
                              executable: tool, arguments: arguments, inputFiles: inputs, outputFiles: [stamp])]
    }

    /// One command for all the target's policies: they share the Swift file.
    static func commands(policies: [URL], package: URL, workDirectory: URL, tool: URL) -> [Command] {
        guard !policies.isEmpty else { return [] }
        let output = workDirectory.appendingPathComponent("policies")
        let swift = workDirectory.appendingPathComponent("WebPolicies.swift")
        var inputs = policies + policies.flatMap(PolicyFiles.includes(of:))
        // Findings name this plugin's own fix command, not `webpolicy lint --fix`.
        var arguments = ["build-resources", "--output", output.path, "--swift", swift.path, "--color", "never",
                         "--fix-command", "swift package --allow-writing-to-package-directory webpolicy-fix"]
        if let configuration = PolicyFiles.configuration(in: package) {
            inputs.append(configuration)
            arguments += ["--config", configuration.path]
        } else {
            arguments.append("--no-config")
        }
        arguments += policies.map(\.path)
        let folders = policies.map { output.appendingPathComponent(folderName(of: $0)) }
        return [.buildCommand(
            displayName: "webpolicy: linting and compiling \(policies.map(\.lastPathComponent).joined(separator: ", "))",
            executable: tool, arguments: arguments, inputFiles: inputs, outputFiles: folders + [swift])]
    }

    /// As `webpolicy build-resources` names the folder: the file name without `.webpolicy.yaml`.
    static func folderName(of policy: URL) -> String {
        var name = policy.lastPathComponent
        for suffix in [".webpolicy.yaml", ".webpolicy.yml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same for an Xcode app target: its `*.webpolicy.yaml` files in the target's membership.
extension WebPolicyBuildPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let files = target.inputFiles.map(\.url)
        let policies = files.filter(PolicyFiles.isPolicy).sorted { $0.path < $1.path }
        let tool = try context.tool(named: "webpolicy").url
        return Self.commands(policies: policies, package: context.xcodeProject.directoryURL, workDirectory: context.pluginWorkDirectoryURL, tool: tool)
            + Self.auditCommands(policies: policies, code: files.filter(PolicyFiles.isAuditedCode), target: target.displayName,
                                 package: context.xcodeProject.directoryURL, workDirectory: context.pluginWorkDirectoryURL, tool: tool)
    }
}
#endif
