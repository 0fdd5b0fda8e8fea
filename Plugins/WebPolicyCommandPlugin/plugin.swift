import Foundation
import PackagePlugin

/// `swift package webpolicy lint|simulate|init …`: the command line over the package's
/// targets. `lint` and `simulate` take every `*.webpolicy.yaml` policy and `*.trace` trace of
/// the targets (`--target NAME` to choose); other arguments go to `webpolicy` as they are.
/// `lint --fix` rewrites policies and `init` creates files: like SwiftLint's command plugin,
/// the plugin declares write access to the package, so SwiftPM asks for it —
/// `--allow-writing-to-package-directory` — and refuses without it.
@main
struct WebPolicyCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var rest = extractor.remainingArguments
        guard let verb = rest.first else { throw PluginFailure(Self.usage) }
        rest.removeFirst()
        let targets = try targetNames.isEmpty ? context.package.targets : context.package.targets(named: targetNames)
        // Every file under the targets' folders, excluded ones too: a trace is usually
        // excluded from the target (SwiftPM has nothing to build from it).
        let files = targets.compactMap { $0 as? SourceModuleTarget }.flatMap { Self.files(under: $0.directoryURL) }
        let tool = try context.tool(named: "webpolicy").url

        var command: [String]
        switch verb {
        case "lint":
            let policies = files.filter(PolicyFiles.isPolicy).map(\.path).sorted()
            guard !policies.isEmpty else { throw PluginFailure("no *.webpolicy.yaml policies in \(Self.describe(targets))") }
            command = ["lint"] + rest + policies
        case "simulate":
            let traces = files.filter { $0.pathExtension == "trace" }.map(\.path).sorted()
            guard !traces.isEmpty else { throw PluginFailure("no *.trace traces in \(Self.describe(targets))") }
            command = ["simulate"] + rest + traces
        case "init":
            // Into the (one) named target's folder, as `webpolicy init --swiftpm` does.
            guard let target = targets.compactMap({ $0 as? SourceModuleTarget }).first, targets.count == 1 || !targetNames.isEmpty else {
                throw PluginFailure("name the target to add a policy to: swift package --allow-writing-to-package-directory webpolicy init --target NAME")
            }
            command = ["init", "--swiftpm", target.name, "--directory", context.package.directoryURL.path] + rest
        default:
            command = [verb] + rest
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = command
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw PluginFailure("webpolicy \(verb) exited with \(process.terminationStatus)")
        }
    }

    static func files(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
    }

    static let usage = "usage: swift package webpolicy lint|simulate [--target NAME] [webpolicy options]; swift package --allow-writing-to-package-directory webpolicy lint --fix | init --target NAME"

    static func describe(_ targets: [Target]) -> String {
        "the targets " + targets.map(\.name).joined(separator: ", ")
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
