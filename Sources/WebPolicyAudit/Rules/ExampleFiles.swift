import WebPolicyKit

extension CodeExample.File {
    /// An XML Info.plist for a rule's example: the entries of its top-level dictionary, written
    /// without the header and the indentation every plist repeats.
    static func infoPlist(_ entries: String, path: String = "App/Info.plist") -> CodeExample.File {
        let indented = entries.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return CodeExample.File(path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(indented)\n</dict>\n</plist>")
    }
}
