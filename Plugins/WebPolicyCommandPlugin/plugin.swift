import Foundation
import PackagePlugin

/// `swift package webpolicy lint|simulate …`: the reading commands over the package's
/// targets, with no permission to ask for — the first thing a newcomer types works as typed.
/// `lint` takes every `*.webpolicy.yaml` policy and `simulate` every `*.trace` trace of the
/// targets (`--target NAME` to choose); other arguments go to `webpolicy` as they are. What
/// writes has plugins of its own that ask for the permission: `webpolicy-fix`, `webpolicy-init`.
@main
struct WebPolicyCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var (targets, _, rest) = try PluginCommand.targets(context, arguments)
        guard let verb = rest.first else { throw PluginFailure(Self.usage) }
        rest.removeFirst()
        switch verb {
        case "lint":
            // SwiftPM does not sandbox plugins on Linux: this plugin, granted nothing, must
            // not write on its own account.
            if rest.contains("--fix") {
                throw PluginFailure("'lint --fix' rewrites policies, so it has a plugin of its own that asks for the permission: swift package --allow-writing-to-package-directory webpolicy-fix")
            }
            // Findings name the fix plugin, not `webpolicy lint --fix`.
            try PluginCommand.run(context, ["lint", "--fix-command", "swift package --allow-writing-to-package-directory webpolicy-fix"] + rest + PluginCommand.policies(of: targets))
        case "simulate":
            if rest.contains("--record") || rest.contains("--record-to") {
                throw PluginFailure("'simulate --record' rewrites traces; run the webpolicy command line for it")
            }
            let traces = PluginCommand.files(of: targets).filter { $0.pathExtension == "trace" }.map(\.path).sorted()
            guard !traces.isEmpty else { throw PluginFailure("no *.trace traces in \(PluginCommand.describe(targets))") }
            try PluginCommand.run(context, ["simulate"] + rest + traces)
        case "init":
            throw PluginFailure("'init' writes files, so it has a plugin of its own that asks for the permission: swift package --allow-writing-to-package-directory webpolicy-init --target NAME")
        default:
            throw PluginFailure("unknown command '\(verb)'. \(Self.usage)")
        }
    }

    static let usage = """
    usage: swift package webpolicy lint|simulate [--target NAME] [webpolicy options]
           swift package --allow-writing-to-package-directory webpolicy-fix [--target NAME]
           swift package --allow-writing-to-package-directory webpolicy-init --target NAME
    """
}
