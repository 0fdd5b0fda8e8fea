/// What the audit reads of a security setting's value, in one place for the rules and the draft.
extension AppFact.Setting {
    /// The kind of store a `websiteDataStore` assignment gives (`webview.data-store`'s word):
    /// `.nonPersistent()`, `WKWebsiteDataStore(forIdentifier:)`, `.default()`; nil otherwise.
    var dataStoreKind: String? {
        let text = value.text
        return text.contains("nonPersistent") ? "non-persistent" : text.contains("forIdentifier") ? "profile" : text.hasSuffix("default()") ? "default" : nil
    }

    /// A page's `DeviceSensorAuthorization(decision: .grant)`: one grant for every request.
    var grantsEveryRequest: Bool { value.text.replacingOccurrences(of: " ", with: "").contains("decision:.grant") }
}
