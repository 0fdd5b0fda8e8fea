import WebPolicyRuntime

/// The security settings of `webview:` beyond its on/off rows, as the file writes them:
/// the web-page preferences (`lockdown`, `security-restriction-mode`, `https-navigation`),
/// the data store, the web extensions the app may load, and who may ask for the camera, the
/// microphone and motion sensors.
extension WebViewSection {
    /// The value written for a web-page preference (`WebViewSettingCatalogue.choices`); nil:
    /// the platform decides, as `lockdown: device` says in words (kept as written).
    public subscript(choice row: WebViewChoiceSetting) -> LocatedString? {
        get { choices[row.key] }
        set { choices[row.key] = newValue }
    }

    /// The permission entry for a capability, if the file names it.
    public func permission(_ kind: PermissionKind) -> PermissionDeclaration? { permissions?.value.first { $0.kind == kind } }

    /// What the runtime applies of these settings.
    func applySecurity(to settings: inout WebViewSettings) {
        for (key, value) in choices where WebViewSettingCatalogue.choice(key: key)?.choice(named: value.value) != nil { settings.choices[key] = value.value }
        settings.dataStore = dataStore?.value
        settings.webExtensions = webExtensions?.value.map(\.value)
        var rules = PermissionRules()
        for declaration in permissions?.value ?? [] {
            rules[declaration.kind] = .init(declaration.rule, location: declaration.location)
        }
        settings.permissions = rules
    }

    /// How many of these settings the file writes (a permission entry each).
    var securityCensus: Int {
        choices.values.filter { $0.value != "device" }.count + (dataStore == nil ? 0 : 1) + (webExtensions == nil ? 0 : 1) + (permissions?.value.count ?? 0)
    }

    /// Each key as the last of `sections` that sets it says.
    mutating func mergeSecurity(_ sections: [WebViewSection]) {
        for row in WebViewSettingCatalogue.choices {
            choices[row.key] = sections.last { $0.choices[row.key] != nil }?.choices[row.key]
        }
        dataStore = sections.last { $0.dataStore != nil }?.dataStore
        webExtensions = sections.last { $0.webExtensions != nil }?.webExtensions
        permissions = sections.last { $0.permissions != nil }?.permissions
    }
}

/// One capability under `webview.permissions`: `deny`, `ask`, or the origins that may ask.
public struct PermissionDeclaration: Sendable {
    public var kind: PermissionKind
    public var rule: PermissionRule
    /// The origins as written, for `origins` (lint and reasons point at each).
    public var origins: [LocatedString]
    public var location: SourceLocation

    public init(kind: PermissionKind, rule: PermissionRule, origins: [LocatedString] = [], location: SourceLocation) {
        self.kind = kind
        self.rule = rule
        self.origins = origins
        self.location = location
    }
}
