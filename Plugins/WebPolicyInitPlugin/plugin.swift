import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory webpolicy-init --target NAME`: a
/// starter policy and trace in the target's folder, as `webpolicy init --swiftpm NAME` writes
/// them. It writes, so SwiftPM asks for the permission before it runs.
@main
struct WebPolicyInitPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let (targets, named, rest) = try PluginCommand.targets(context, arguments)
        guard let target = targets.compactMap({ $0 as? SourceModuleTarget }).first, targets.count == 1 || named else {
            throw PluginFailure("name the target to add a policy to: swift package --allow-writing-to-package-directory webpolicy-init --target NAME")
        }
        try PluginCommand.run(context, ["init", "--swiftpm", target.name, "--directory", context.package.directoryURL.path] + rest)
    }
}
