import WebPolicyRuntime

/// A string from a policy file, with where and how it was written. The scalar style lets a
/// rule put its caret on the exact character inside the value (see `ScalarSourceMap`).
public struct LocatedString: Hashable, Sendable, CustomStringConvertible {
    public var value: String
    public var location: SourceLocation
    public var style: ScalarStyle

    public init(_ value: String, at location: SourceLocation, style: ScalarStyle = .plain) {
        self.value = value
        self.location = location
        self.style = style
    }

    public var description: String { value }
}
