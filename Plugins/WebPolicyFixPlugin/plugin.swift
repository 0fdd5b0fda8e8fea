import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory webpolicy-fix`: `webpolicy lint --fix`
/// over the targets' policies. It writes, so SwiftPM asks for the permission before it runs —
/// the reading commands live in the `webpolicy` plugin, which asks for nothing.
@main
struct WebPolicyFixPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let (targets, _, rest) = try PluginCommand.targets(context, arguments)
        try PluginCommand.run(context, ["lint", "--fix"] + rest.filter { $0 != "--fix" } + PluginCommand.policies(of: targets))
    }
}
