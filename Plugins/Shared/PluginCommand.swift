import Foundation
import PackagePlugin

/// What the command plugins share (linked into each plugin's folder: plugins cannot share a
/// module): choosing targets, finding their files, running the `webpolicy` tool.
enum PluginCommand {
    /// The targets `--target NAME` (repeatable) names, else every target; and the arguments
    /// left for webpolicy.
    static func targets(_ context: PluginContext, _ arguments: [String]) throws -> (targets: [Target], named: Bool, rest: [String]) {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = try names.isEmpty ? context.package.targets : context.package.targets(named: names)
        return (targets, !names.isEmpty, extractor.remainingArguments)
    }

    /// Every file under the targets' folders, excluded ones too: a trace is usually excluded
    /// from the target (SwiftPM has nothing to build from it).
    static func files(of targets: [Target]) -> [URL] {
        targets.compactMap { $0 as? SourceModuleTarget }.flatMap { target -> [URL] in
            guard let enumerator = FileManager.default.enumerator(at: target.directoryURL, includingPropertiesForKeys: nil) else { return [] }
            return enumerator.compactMap { $0 as? URL }
        }
    }

    /// The targets' `*.webpolicy.yaml` policies, sorted.
    static func policies(of targets: [Target]) throws -> [String] {
        let policies = files(of: targets).filter(PolicyFiles.isPolicy).map(\.path).sorted()
        guard !policies.isEmpty else { throw PluginFailure("no *.webpolicy.yaml policies in \(describe(targets))") }
        return policies
    }

    /// Runs webpolicy in the package's folder; its output goes straight to the terminal.
    static func run(_ context: PluginContext, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try context.tool(named: "webpolicy").url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw PluginFailure("webpolicy \(arguments.first ?? "") exited with \(process.terminationStatus)")
        }
    }

    static func describe(_ targets: [Target]) -> String {
        "the targets " + targets.map(\.name).joined(separator: ", ")
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
