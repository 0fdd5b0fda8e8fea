import Foundation
import WebPolicyRuntime

/// A `content-rule-lists:` entry: a WebKit content-blocker list the policy does not own (a
/// vendor's tracker list, a downloaded one) that the app adds to its web views as a list of
/// its own, beside the policy's rules.
public final class ContentRuleListReference: Sendable {
    public let location: SourceLocation
    /// As written, relative to the policy file that names it.
    public let path: LocatedString
    /// The list's name in identifiers and reports; by default the file's name without `.json`.
    public let id: LocatedString?

    public init(location: SourceLocation, path: LocatedString, id: LocatedString?) {
        self.location = location
        self.path = path
        self.id = id
    }
}

/// A referenced list as the loader read it: checked with the port of WebKit's parser, its
/// text kept to copy verbatim, its rules as WebKit keeps them.
public struct ExternalContentRuleList: Sendable {
    public let reference: ContentRuleListReference
    public let file: SourceFile
    public let rules: [(index: Int, rule: JSONValue, range: SourceRange)]

    /// `id:`, or the file name without `.json`.
    public var name: String {
        if let id = reference.id?.value { return id }
        let last = (file.path as NSString).lastPathComponent
        return last.hasSuffix(".json") ? String(last.dropLast(5)) : last
    }
}
