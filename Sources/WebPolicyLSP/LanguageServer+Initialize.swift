import Foundation
import WebPolicyKit
import WebPolicyRuntime

extension LanguageServer {
    /// `initialize`: where the workspace is, what the editor can take, and what the server offers.
    func initialize(_ params: [String: Any]) -> JSONValue {
        // The workspace's folder stands for the working folder `lint` runs in: its
        // `.webpolicy.yml` (or the nearest above it) is the one the command line reads.
        if let rootURI = params["rootUri"] as? String {
            root = DocumentStore.path(ofURI: rootURI)
        } else if let rootPath = params["rootPath"] as? String {
            root = rootPath
        }
        let capabilities = params["capabilities"] as? [String: Any]
        let workspace = capabilities?["workspace"] as? [String: Any]
        refreshesLenses = (workspace?["codeLens"] as? [String: Any])?["refreshSupport"] as? Bool ?? false
        let general = capabilities?["general"] as? [String: Any]
        encoding = PositionEncoding.chosen(from: general?["positionEncodings"] as? [String] ?? [])
        return .object([
            ("capabilities", .object([
                ("positionEncoding", .string(encoding.rawValue)),
                // Whole texts on each change: a policy is small, and a whole text cannot drift.
                ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(1)), ("save", .object([("includeText", .bool(false))]))])),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix"), .string(CodeActions.fixAllKind)]))])),
                ("hoverProvider", .bool(true)),
                ("completionProvider", .object([("triggerCharacters", .array([.string(" ")]))])),
                ("definitionProvider", .bool(true)),
                ("documentLinkProvider", .object([("resolveProvider", .bool(false))])),
                ("documentSymbolProvider", .bool(true)),
                ("codeLensProvider", .object([("resolveProvider", .bool(false))])),
                ("executeCommandProvider", .object([("commands", .array([.string(TraceLens.command)]))])),
            ])),
            ("serverInfo", .object([("name", .string("webpolicy")), ("version", .string(version))])),
        ])
    }
}
