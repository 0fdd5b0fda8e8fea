import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// `webpolicy init --from-app`: a first policy written from what the app already does, so a
/// team adopting webpolicy on an existing app starts from its truth, not a blank page. It
/// describes without endorsing: where the code does something no policy should allow (an
/// inspectable release build, ATS off for every host, every scheme handed to the system), the
/// draft holds the safe value and a `# decide:` note with the lines; what the code cannot tell
/// (which origins may call a bridge) is a `# decide:` note with what the code does today. The
/// draft lints without errors, and `audit` under it reports only the lines its notes name.
public struct PolicyDraft {
    public var yaml: String
    /// What the team must decide, for standard error (the same notes are in the YAML).
    public var warnings: [String]

    public init(inventory: AppInventory, name: String) {
        var builder = Builder(inventory: inventory)
        var document = DraftDocument()
        document.header = [
            "Drafted by `webpolicy init --from-app` from what the app's code, Info.plists and storyboards do today. "
                + "Review every section, and every `decide:` note: where the code does what no policy should allow, "
                + "the draft says the safe thing and names the lines. `webpolicy audit --policy THIS-FILE` keeps the two together from now on.",
        ]
        document.add("webpolicy", .int(1))
        document.add("name", .string(name))
        builder.target(into: &document)
        for section in Self.sections { section.write(&builder, &document) }
        builder.otherHazards(into: &document)
        yaml = document.text
        warnings = builder.warnings
    }

    /// The sections the draft writes, each from its own file under `Draft/Sections/`, in the
    /// order it writes them: app-bound-domains after bridges, whose handlers decide its note.
    static let sections: [(key: String, write: @Sendable (inout Builder, inout DraftDocument) -> Void)] = [
        ("http-allowlist", { $0.httpAllowlist(into: &$1) }),
        ("scheme-allowlist", { $0.schemeAllowlist(into: &$1) }),
        ("interception", { $0.interception(into: &$1) }),
        ("bridges", { $0.bridges(into: &$1) }),
        ("runtime-hosts", { $0.runtimeHosts(into: &$1) }),
        ("webview", { $0.webView(into: &$1) }),
        ("app-bound-domains", { $0.appBoundDomains(into: &$1) }),
    ]

    /// The sections the draft leaves to the team, and why: the code holds no data for them.
    static let notDrafted: [String: String] = [
        "content-rules": "which loads to block is the team's choice; an app's code holds no rules to read",
        "content-rule-lists": "a list file is the team's (or a vendor's) choice; the code only installs what it is given",
        "cookies": "a cookie's value is made at run time (a session, a token); the draft cannot say which to inject",
        "navigation": "where the view may go is decided in the navigation delegate's code, which the draft cannot read as rules",
    ]

    /// What each section is drafted from.
    struct Builder {
        let inventory: AppInventory
        let subject: AuditSubject
        let plists: [InfoPlist]
        var warnings: [String] = []
        var bridgeCount = 0
        /// The bridges' gates that compare the sender's origin with hosts worked out at run
        /// time: the draft names those hosts by a role (`runtimeRole`).
        var runtimeRoleGates: [String] = []
        static let runtimeRole = "server"

        init(inventory: AppInventory) {
            self.inventory = inventory
            subject = AuditSubject(inventory: inventory, policy: nil)
            plists = inventory.plists.filter { !$0.isEntitlements }
        }

        /// A note for the team: on standard error, and as a comment in the draft.
        mutating func decide(_ text: String) -> String {
            warnings.append(text)
            return "decide: " + text
        }

        static func place(_ site: FactSite) -> String { "\(site.location.path):\(site.location.range.start.line)" }

        // MARK: target

        func target(into document: inout DraftDocument) {
            guard let target = inventory.deploymentTarget, let file = inventory.deploymentTargetFile else { return }
            let after = DeploymentTargetSource.allCases.filter { $0 > file.source }.map(\.name)
            let rank = after.isEmpty ? "" : " (\(file.source.withArticle) is read before " + SchemeScope.list(after.map { "the " + $0 }) + ")"
            document.add("target", .object([("ios", .string(target))]), comments: ["The deployment target, from \(file.path)\(rank)."])
        }

        mutating func literal(_ keys: [AppFact.SettingKey], name: String) -> Bool? {
            let written = keys.flatMap { subject.settings($0) }.filter { $0.fact.site.inRelease && !$0.fact.site.inPreview && !$0.setting.onCopy }
            let values = Set(written.compactMap { $0.setting.value.boolValue })
            guard values.count > 1 else { return values.first }
            let places = written.map { Self.place($0.fact.site) }
            warnings.append("the code sets \(name) both true and false (\(places.joined(separator: ", "))): the draft says true; audit reports the other places until the code agrees")
            return true
        }

    }

    static func handlerName(_ written: String?) -> String {
        guard let written, !written.isEmpty else { return "the app's scheme handler" }
        return written
    }

    static func isHost(_ value: String) -> Bool {
        !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" } && !value.hasPrefix(".") && !value.hasSuffix(".")
    }

    static func isScheme(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }
}
