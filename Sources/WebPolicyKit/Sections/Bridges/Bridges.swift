import WebPolicyRuntime

extension Sections {
    /// `bridges:` — the script message handlers the app registers and who may call each:
    /// the runtime's message gate, and the app's `ScriptMessageGate`.
    enum Bridges: ListSection {
        static let key = "bridges"
        static let schemaDefinitions = [(definition: "bridge", keys: PolicyKeys.bridge)]
        static let entryKinds = [Coverage.Kind.bridge.rawValue, Coverage.Kind.bridgeOrigin.rawValue]
        static let ruleCategory = RuleCategory.bridges
        static let pipelineSteps: [PipelineStep] = [.message]

        static var entriesOfDocument: WritableKeyPath<PolicyDocument, [Entry]> { \.bridges }
        static var entriesOfPolicy: WritableKeyPath<Policy, [Entry]> { \.bridges }

        static func decodeEntry(_ node: YAMLNode, with decoder: inout PolicyDecoder) -> BridgeDeclaration? { decoder.decodeBridge(node) }


        static func lower(_ policy: Policy, lists: [RuntimeManifest.ListFile], into manifest: inout Manifest) {
            manifest.bridges = policy.bridges.map { declaration in
                let origins = declaration.runtimeOrigins.map { origin in
                    var origin = origin
                    origin.schemes = policy.schemeNames(of: origin.host, written: declaration.schemes)
                    return origin
                }
                return Bridge(name: declaration.name.value, origins: origins, frames: declaration.framesValue, world: declaration.worldValue,
                       reply: declaration.replyValue, location: declaration.location, framesLocation: declaration.frames?.location,
                       originsLocation: declaration.origins?.location)
            }
        }

        /// A bridge is its handler's name in its content world: WebKit keeps one handler of a
        /// name per world (`WKUserContentController.add(_:contentWorld:name:)`).
        static func diffEntries(_ node: YAMLNode, in file: SourceFile, policy: Policy) -> [SectionEntry] {
            SectionEntry.list(node, in: file, kind: entryKinds[0]) { entry in
                let name = entry.value("name") ?? ""
                let world = entry.value("world").flatMap { $0 == "page" ? nil : $0 }
                let shown = "'\(name)'" + (world.map { " in world '\($0)'" } ?? "")
                return (name + (world.map { "\u{1}" + $0 } ?? ""), shown)
            }
        }

        /// Each bridge, then each of its origins: a message names the bridge it was posted to,
        /// and the origin that admitted it.
        static func coverageItems(of policy: Policy) -> [Coverage.Item] {
            policy.bridges.flatMap { bridge in
                [Coverage.Item(kind: .bridge, name: "'\(bridge.name.value)'", location: bridge.location)]
                    + (bridge.origins?.value ?? []).map { Coverage.Item(kind: .bridgeOrigin, name: "\(bridge.name.value): \($0.value)", location: $0.location) }
            }
        }

        /// The bridge a message was posted to, and the origin that admitted it.
        static func markCoverage(of result: RequestResult, in marks: inout Coverage.Marks) {
            if let message = result.entry.message {
                for bridge in marks.bridges where bridge.name == message.handler && bridge.world == message.world { marks.mark(item: bridge.item) }
            }
            if let admission = result.decision.bridge, marks.bridges.indices.contains(admission.bridge) {
                marks.mark(item: marks.bridges[admission.bridge].origins + admission.origin)
            }
        }

        static func census(_ manifest: Manifest) -> Int { manifest.bridges.count }
    }
}
