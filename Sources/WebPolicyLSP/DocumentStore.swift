import Foundation

/// The documents the editor has open: their unsaved texts and versions, by URI.
struct DocumentStore {
    private var documents: [String: (text: String, version: Int)] = [:]

    var uris: [String] { documents.keys.sorted() }

    mutating func open(uri: String, text: String, version: Int) { documents[uri] = (text, version) }

    mutating func change(uri: String, text: String, version: Int) { documents[uri] = (text, version) }

    mutating func close(uri: String) { documents[uri] = nil }

    func text(of uri: String) -> String? { documents[uri]?.text }

    func version(of uri: String) -> Int? { documents[uri]?.version }

    /// A `file:` URI's path (percent-escapes decoded); another URI as it is, which no file
    /// on disk has: its text is linted all the same.
    static func path(ofURI uri: String) -> String {
        guard let url = URL(string: uri), url.isFileURL else { return uri }
        return url.path
    }

    /// The `file:` URI of a path (a relative one from the working folder).
    static func uri(ofPath path: String) -> String {
        if path.contains("://") { return path }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).absoluteString
    }
}
