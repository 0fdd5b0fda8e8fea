import WebPolicyRuntime

/// `webview:`, read as the other sections are: every structural problem reported at its place,
/// the rest kept.
extension PolicyDecoder {
    mutating func decodeWebView(_ node: YAMLNode) -> WebViewSection? {
        guard let fields = reader.fields(of: node, context: "the webview section", allowed: PolicyKeys.webView) else { return nil }
        var section = WebViewSection(location: reader.location(node))
        for row in WebViewSettingCatalogue.booleans {
            section[row] = reader.bool(row.key, in: fields)
        }
        section.fileAccess = reader.string("file-access", in: fields)
        if let access = section.fileAccess, access.value != "none" {
            let parts = access.value.split(separator: "/", omittingEmptySubsequences: false)
            if access.value.hasPrefix("/") || access.value.isEmpty || parts.contains("..") || parts.contains("") && !access.value.hasSuffix("/") {
                reader.error(.invalidValue, "'file-access' is none, or a folder of the app bundle such as Offline/shop, but got '\(access.value)'", at: access.location.range,
                             hint: "a folder inside the bundle, without a leading '/' or '..': loadFileURL(_:allowingReadAccessTo:) reads everything in it")
            }
        }
        section.dataDetectors = reader.choiceList("data-detectors", in: fields, as: DataDetector.self)
        decodeWebViewSecurity(fields, into: &section)
        return section
    }
}
