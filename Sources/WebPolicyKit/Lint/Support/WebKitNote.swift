import WebPolicyRuntime

extension Diagnostic.Note {
    /// "WebKit refuses the whole rule list with <error>: <message>", for rules that mirror one
    /// of WebKit's parser errors.
    static func webKitRefuses(_ error: ContentExtensionError) -> Diagnostic.Note {
        Diagnostic.Note("WebKit refuses the whole rule list with \(error.rawValue): \"\(error.message)\"")
    }
}
