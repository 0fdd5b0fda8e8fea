import WebPolicyKit
import WebPolicyRuntime

/// The inventory as JSON (`audit --inventory`): every
/// fact with its place and whether a release build compiles it, the plists' keys, what was
/// left out. Sorted by file and position, so the output is byte-stable.
public enum InventoryRenderer {
    public static func json(_ inventory: AppInventory, tree: AppTree) -> String {
        let facts: [JSONValue] = inventory.facts.filter { $0.site.compiled != .never }.map { fact in
            .object([
                ("file", .string(fact.site.location.path)),
                ("line", .int(fact.site.location.range.start.line)),
                ("column", .int(fact.site.location.range.start.column)),
                ("compiled", .string(fact.site.compiled.rawValue)),
            ] + (fact.site.enclosingType.map { [("type", JSONValue.string($0))] } ?? [])
              + (fact.site.enclosingFunction.map { [("function", JSONValue.string($0))] } ?? [])
              + fields(of: fact.kind))
        }
        let plists: [JSONValue] = inventory.plists.map { plist in
            var fields: [(String, JSONValue)] = [("file", .string(plist.path)), ("kind", .string(plist.isEntitlements ? "entitlements" : "info"))]
            if let ats = plist.transportSecurity {
                var atsFields: [(String, JSONValue)] = []
                if let value = ats.allowsArbitraryLoads { atsFields.append(("NSAllowsArbitraryLoads", .bool(value.value))) }
                if let value = ats.allowsArbitraryLoadsInWebContent { atsFields.append(("NSAllowsArbitraryLoadsInWebContent", .bool(value.value))) }
                if let value = ats.allowsArbitraryLoadsForMedia { atsFields.append(("NSAllowsArbitraryLoadsForMedia", .bool(value.value))) }
                if let value = ats.allowsLocalNetworking { atsFields.append(("NSAllowsLocalNetworking", .bool(value.value))) }
                atsFields.append(("insecureExceptionDomains", .array(ats.exceptionDomains.filter { $0.allowsInsecureHTTPLoads?.value == true }.map { domain in
                    .object([("domain", .string(domain.domain.value)), ("includesSubdomains", .bool(domain.includesSubdomains))])
                })))
                fields.append(("appTransportSecurity", .object(atsFields)))
            }
            if let (_, domains) = plist.appBoundDomains { fields.append(("WKAppBoundDomains", .array(domains.map { .string($0.value) }))) }
            if let (_, schemes) = plist.queriesSchemes { fields.append(("LSApplicationQueriesSchemes", .array(schemes.map { .string($0.value) }))) }
            if !plist.urlSchemes.isEmpty { fields.append(("CFBundleURLSchemes", .array(plist.urlSchemes.map { .string($0.value) }))) }
            if let value = plist.getTaskAllow { fields.append(("get-task-allow", .bool(value.value))) }
            return .object(fields)
        }
        var counts: [(String, JSONValue)] = []
        for (language, name) in [(FileFacts.Language.swift, "swift"), (.objectiveC, "objective-c"), (.plist, "plist"), (.interfaceBuilder, "interface-builder")] {
            counts.append((name, .int(inventory.files[language] ?? 0)))
        }
        return JSONValue.object([
            ("version", .int(1)),
            ("files", .object(counts)),
            ("lines", .int(inventory.lines)),
            ("deploymentTarget", inventory.deploymentTarget.map { .string($0) } ?? .null),
            ("deploymentTargetFrom", inventory.deploymentTargetFile.map { .string($0.path) } ?? .null),
            ("skippedTestFiles", .int(tree.skippedTests)),
            ("skippedFolders", .array(tree.skippedFolders.map { .string($0) })),
            ("webViewClasses", .array(inventory.webViewClasses.sorted().map { .string($0) })),
            ("facts", .array(facts)),
            ("plists", .array(plists)),
            ("unreadable", .array(inventory.problems.map { problem in
                .object([("file", .string(problem.location.path)), ("line", .int(problem.location.range.start.line)),
                         ("column", .int(problem.location.range.start.column)), ("message", .string(problem.message))])
            })),
        ]).serialized()
    }

    static func value(_ value: CodeValue) -> JSONValue {
        var fields: [(String, JSONValue)] = [("kind", .string(value.kind.rawValue))]
        switch value.kind {
        case .bool: fields.append(("value", .bool(value.boolValue ?? false)))
        case .string, .number: fields.append(("value", .string(value.text)))
        case .nil: break
        case .interpolated, .encoded, .expression: fields.append(("source", .string(value.text)))
        }
        if let constant = value.constant { fields.append(("constant", .string(constant))) }
        return .object(fields)
    }

    static func fields(of kind: AppFact.Kind) -> [(String, JSONValue)] {
        switch kind {
        case .messageHandler(let handler):
            return [("fact", .string("message-handler")), ("name", value(handler.name)),
                    ("world", handler.world.map(value) ?? .object([("kind", .string("string")), ("value", .string("page"))])),
                    ("reply", .bool(handler.reply)), ("throughRuntimeGate", .bool(handler.throughGate))]
                + (handler.handlerClass.map { [("handlerClass", JSONValue.string($0))] } ?? [])
        case .schemeHandler(let handler):
            return [("fact", .string("scheme-handler")), ("scheme", handler.scheme.map(value) ?? .string("every scheme the policy intercepts (SchemeHandlerPlan)")),
                    ("guarded", .bool(handler.guarded))] + (handler.handler.map { [("handler", JSONValue.string($0))] } ?? [])
        case .webView(let view):
            var fields: [(String, JSONValue)] = [("fact", .string("web-view")), ("class", .string(view.className)), ("managed", .bool(view.managed)),
                                                 ("interfaceBuilder", .bool(view.interfaceBuilder)), ("forNewWindow", .bool(view.forNewWindow))]
            if let configuration = view.configuration { fields.append(("configuration", .string(configuration))) }
            return fields
        case .setting(let setting):
            return [("fact", .string("setting")), ("setting", .string(setting.key.rawValue)), ("target", .string(setting.target)),
                    ("value", value(setting.value)), ("onConfigurationCopy", .bool(setting.onCopy))]
                + (setting.condition.map { [("when", JSONValue.string($0.text))] } ?? [])
        case .load(let load):
            return [("fact", .string("load")), ("api", .string(load.api.rawValue)), ("content", value(load.content)),
                    (load.api == .loadFileURL || load.api == .loadFileRequest ? "readAccess" : "baseURL", value(load.base))]
        case .script(let script):
            return [("fact", .string("script")), ("api", .string(script.api)), ("script", value(script.script))]
                + (script.splices.map { [("splices", JSONValue.array($0.map(splice)))] } ?? [])
        case .delegate(let method):
            var fields: [(String, JSONValue)] = [("fact", .string("delegate-method")), ("role", .string(method.role.rawValue)), ("readsFrameInfo", .bool(method.readsFrameInfo))]
            switch method.role {
            case .receiveScriptMessage:
                fields += [("testsMainFrame", .bool(method.testsMainFrame)), ("comparedHosts", .array(method.comparedHosts.map(JSONValue.string)))]
            case .mediaCapturePermission, .deviceOrientationPermission:
                fields += [("grants", .bool(method.grants)), ("readsRequester", .bool(method.readsRequester))]
            default:
                break
            }
            return fields
        case .api(let use):
            return [("fact", .string("api")), ("api", .string(use.api.rawValue))] + (use.detail.map { [("detail", value($0))] } ?? [])
                + (use.receiver.map { [("receiver", JSONValue.string($0))] } ?? [])
        case .handOff(let handOff):
            var fields: [(String, JSONValue)] = [("fact", .string("hand-off")), ("trigger", .string(handOff.trigger.rawValue)), ("schemes", schemes(handOff.schemes))]
            if let site = handOff.openSite { fields.append(("opensAt", place(site))) }
            if !handOff.through.isEmpty { fields.append(("through", .array(handOff.through.map(JSONValue.string)))) }
            return fields
        }
    }

    static func place(_ location: SourceLocation) -> JSONValue {
        .object([("file", .string(location.path)), ("line", .int(location.range.start.line)), ("column", .int(location.range.start.column))])
    }

    static func schemes(_ scope: SchemeScope) -> JSONValue {
        switch scope {
        case .any: return .object([("kind", .string("any"))])
        case .anyExcept(let schemes): return .object([("kind", .string("any-except")), ("schemes", .array(schemes.map(JSONValue.string)))])
        case .only(let schemes): return .object([("kind", .string("only")), ("schemes", .array(schemes.map(JSONValue.string)))])
        case .queried: return .object([("kind", .string("queried"))])
        }
    }

    static func splice(_ splice: ScriptSplice) -> JSONValue {
        .object([
            ("expression", .string(splice.expression)), ("line", .int(splice.location.range.start.line)), ("column", .int(splice.location.range.start.column)),
            ("quoted", .bool(splice.quoted)),
            ("origins", .array(splice.origins.map { origin in
                var fields: [(String, JSONValue)] = [("kind", .string(origin.kind.rawValue)), ("detail", .string(origin.detail))]
                if let site = origin.site { fields.append(("line", .int(site.range.start.line))) }
                if !origin.through.isEmpty { fields.append(("through", .array(origin.through.map(JSONValue.string)))) }
                return .object(fields)
            })),
        ])
    }
}

/// The human report's last word about what was read, on standard error.
public enum AuditSummary {
    public static func text(_ reading: Auditor.Reading, policy: String?) -> String {
        let inventory = reading.inventory
        func count(_ language: FileFacts.Language, _ name: String) -> String? {
            guard let number = inventory.files[language], number > 0 else { return nil }
            return "\(number) \(name)"
        }
        let read = [count(.swift, "Swift"), count(.objectiveC, "Objective-C"), count(.plist, "plist"), count(.interfaceBuilder, "Interface Builder")].compactMap { $0 }
        var lines = "audited \(read.isEmpty ? "no files" : read.joined(separator: ", ") + " file\(reading.tree.files.count == 1 ? "" : "s")") (\(inventory.lines) lines of code)"
        lines += policy.map { " against \($0)" } ?? " without a policy: only the hazard checks ran (--policy FILE checks the code against it)"
        lines += "\n"
        if reading.tree.skippedSwift > 0 {
            lines += "left out \(reading.tree.skippedSwift) Swift file\(reading.tree.skippedSwift == 1 ? "" : "s"): this webpolicy was built without the SwiftAudit trait\n"
        }
        if reading.tree.skippedSwift > 0 {
            lines += "left out \(reading.tree.skippedSwift) Swift file\(reading.tree.skippedSwift == 1 ? "" : "s"): this webpolicy was built without the SwiftAudit trait\n"
        }
        if reading.tree.skippedTests > 0 { lines += "left out \(reading.tree.skippedTests) test file\(reading.tree.skippedTests == 1 ? "" : "s") (--include-tests reads them)\n" }
        if !reading.tree.skippedFolders.isEmpty {
            let shown = reading.tree.skippedFolders.prefix(3).joined(separator: ", ")
            let more = reading.tree.skippedFolders.count > 3 ? " and \(reading.tree.skippedFolders.count - 3) more" : ""
            lines += "not audited (dependencies and build products): \(shown)\(more)\n"
        }
        return lines
    }
}
