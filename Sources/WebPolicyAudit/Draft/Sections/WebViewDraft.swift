import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of webview: every catalogue setting the code sets, at its hardened value where the
/// code weakens the view.
extension PolicyDraft.Builder {
    /// The settings the code writes as literals in release builds. Code that sets one both
    /// ways is a conflict the team decides; an inspectable release build is drafted as not
    /// inspectable, with the lines that say otherwise.
    mutating func webView(into document: inout DraftDocument) {
        var settings: [(String, JSONValue)] = []
        var comments: [String] = ["From the settings the code writes; the rest keep the platform's defaults."]
        // Every row of the catalogue the code writes, but inspectable (below); JavaScript
        // has a deprecated switch too.
        for row in WebViewSettingCatalogue.booleans where row.key != "inspectable" {
            guard let key = AppFact.SettingKey(row) else { continue }
            let keys = key == .allowsContentJavaScript ? [key, .javaScriptEnabled] : [key]
            guard let value = literal(keys, name: key == .allowsContentJavaScript ? "JavaScript" : row.swiftName) else { continue }
            if let hardened = row.hardened, value != hardened {
                // A draft never endorses a weakened view: it keeps the safe value and asks.
                let places = subject.settings(key).filter { $0.fact.site.inRelease && $0.setting.value.boolValue == value }.map { Self.place($0.fact.site) }
                comments.append(decide("the code sets \(row.swiftName) to \(value) (\(SchemeScope.list(places))): the draft says \(row.key): \(hardened); "
                    + "write \(value) here if the team decides it ships so"))
                settings.append((row.key, .bool(hardened)))
            } else {
                settings.append((row.key, .bool(value)))
            }
        }
        // The lines the audit itself reports with no policy: run-time tests are evaluated
        // as it does (a test false in App Store builds is no hazard).
        var context = AuditRuleContext(rule: InspectableInReleaseRule.description, severity: .error)
        InspectableInReleaseRule().check(subject, &context)
        let inspectable = context.diagnostics.filter { $0.notes.allSatisfy { !$0.message.hasPrefix("in a #Preview") } }
        if !inspectable.isEmpty {
            let places = inspectable.map { "\($0.location.path):\($0.location.range.start.line)" }
            comments.append(decide("the code makes the web view inspectable in release builds (\(SchemeScope.list(places))): the draft says inspectable: false; "
                + "set it under #if DEBUG, or write true here if the team decides it ships so"))
        }
        settings.append(("inspectable", .bool(false)))
        let fileLoads = subject.facts().compactMap { fact -> String? in
            guard case .load(let load) = fact.kind, load.api == .loadFileURL || load.api == .loadFileRequest else { return nil }
            return "\(Self.place(fact.site)) (read access to \(load.base.quoted))"
        }
        if !fileLoads.isEmpty {
            let places = fileLoads.count > 3 ? fileLoads.prefix(2).joined(separator: ", ") + " and \(fileLoads.count - 2) more" : SchemeScope.list(fileLoads)
            comments.append(decide("the app loads file URLs (\(places)); webview.file-access is left at none: name the folder, inside the app's bundle, the pages may read"))
        }
        securitySettings(into: &settings, &comments)
        document.add("webview", .object(settings), comments: comments)
    }

    /// The web-page preferences and the data store the code writes in release builds, and the
    /// permissions its UI delegate answers. A grant without the user is never drafted: the
    /// draft says ask, and asks the team which origins may.
    private mutating func securitySettings(into settings: inout [(String, JSONValue)], _ comments: inout [String]) {
        for row in WebViewSettingCatalogue.choices {
            guard let key = AppFact.SettingKey(rawValue: row.objectiveCName) else { continue }
            let written = Set(subject.settings(key).filter { $0.fact.site.inRelease && !$0.fact.site.inPreview }.compactMap { row.choice(writtenAs: $0.setting.value.text)?.name })
            if written.count > 1 {
                comments.append(decide("the code sets \(row.swiftName) to \(written.sorted().joined(separator: " and ")) in different places: write the one the view ships with as \(row.key)"))
                continue
            }
            guard let name = written.first else { continue }
            // Lockdown off overrides a user who turned it on: never drafted, asked.
            if row.key == "lockdown", name == "false" {
                comments.append(decide("the code turns Lockdown Mode off (isLockdownModeEnabled = false): the draft leaves it to the device (lockdown: device); write lockdown: false if the team decides so"))
                settings.append((row.key, .string("device")))
                continue
            }
            // Below the API's iOS the code sets it behind #available: a draft that lint refuses
            // helps nobody, so it says so instead.
            let target = inventory.deploymentTarget.flatMap(OSVersion.init(parsing:)) ?? .defaultTarget
            if let first = OSVersion(parsing: row.firstIOS), target < first, name != row.olderIOS {
                comments.append(decide("the code sets \(row.swiftName) to \(name) (iOS \(row.firstIOS)), above the deployment target: write \(row.key): \(name) once target.ios is \(row.firstIOS)"))
                continue
            }
            settings.append((row.key, row.key == "lockdown" ? .bool(name == "true") : .string(name)))
        }
        let stores = Set(subject.settings(.websiteDataStore).filter { $0.fact.site.inRelease && !$0.setting.onCopy }.compactMap(\.setting.dataStoreKind))
        if stores.count > 1 {
            comments.append(decide("the code gives web views \(stores.sorted().joined(separator: " and ")) data stores: write the one the policy's view uses as data-store"))
        }
        if subject.settings(.webExtensionController).contains(where: { $0.fact.site.inRelease && $0.setting.value.kind != .nil }) {
            comments.append(decide("the code gives a web view a web extension controller: list the extensions it loads under web-extensions (iOS 18.4)"))
        }
        if stores.count == 1, let store = stores.first {
            if store == "profile" {
                comments.append(decide("the code opens a data store of its own (WKWebsiteDataStore(forIdentifier:)): write data-store: { profile: NAME }, or the UUID it uses as NAME"))
            } else {
                settings.append(("data-store", .string(store)))
            }
        }
        var permissions: [(String, JSONValue)] = []
        var grants: [(kinds: [PermissionKind], fact: AppFact)] = []
        for fact in subject.facts() {
            guard case .delegate(let method) = fact.kind, method.grants else { continue }
            let kinds: [PermissionKind]
            switch method.role {
            case .mediaCapturePermission: kinds = [.camera, .microphone]
            case .deviceOrientationPermission: kinds = [.deviceMotion]
            default: continue
            }
            // A delegate that grants to the hosts it compares: those hosts may ask.
            let hosts = method.comparedHosts.filter { HostScope(pattern: $0).role == nil && !$0.contains("/") && !$0.contains(":") }
            if method.readsRequester, !hosts.isEmpty {
                for kind in kinds where !permissions.contains(where: { $0.0 == kind.rawValue }) {
                    permissions.append((kind.rawValue, .array(hosts.sorted().map(JSONValue.string))))
                }
                comments.append(decide("the UI delegate grants \(kinds.map(\.rawValue).joined(separator: " and ")) to \(hosts.sorted().joined(separator: ", ")) without asking the user (\(Self.place(fact.site))): "
                    + "the draft lets those hosts ask instead; answer with PermissionDecider(policy:)"))
                continue
            }
            grants.append((kinds, fact))
        }
        // A page's `DeviceSensorAuthorization(decision: .grant)` answers every capability.
        for (fact, setting) in subject.settings(.deviceSensorAuthorization) where setting.grantsEveryRequest {
            grants.append((PermissionKind.allCases, fact))
        }
        for (kinds, fact) in grants {
            for kind in kinds where !permissions.contains(where: { $0.0 == kind.rawValue }) { permissions.append((kind.rawValue, .string("ask"))) }
            comments.append(decide("the UI delegate grants \(kinds.map(\.rawValue).joined(separator: " and ")) without asking the user (\(Self.place(fact.site))): "
                + "the draft says ask; list the origins that may ask instead, and answer with PermissionDecider(policy:)"))
        }
        if !permissions.isEmpty { settings.append(("permissions", .object(permissions.sorted { PermissionKind(rawValue: $0.0)! < PermissionKind(rawValue: $1.0)! }))) }
    }
}
