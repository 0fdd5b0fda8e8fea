import WebPolicyRuntime

/// Where a fact was read, and whether a release build of the app compiles it.
public struct FactSite: Sendable, Hashable {
    /// Whether the code is in the build, after `#if` / `#ifdef` for an iOS device.
    public enum Compiled: String, Sendable {
        /// In both the release and the debug build.
        case always
        /// Only in the debug build (`#if DEBUG`): findings are reported one step lower.
        case debugOnly = "debug-only"
        /// Only in the release build.
        case releaseOnly = "release-only"
        /// In neither (`#if false`, another platform).
        case never
        /// A condition the audit cannot evaluate (an SDK macro, a custom flag): counted as in
        /// the release build, said as such.
        case unknown
    }

    public var location: SourceLocation
    public var compiled: Compiled
    /// The type and function the code is in, for checks that ask which class registers a
    /// handler or which delegate method decides.
    public var enclosingType: String?
    public var enclosingFunction: String?
    /// Inside a `#Preview { … }`: preview code, reported one step lower.
    public var inPreview: Bool

    public init(location: SourceLocation, compiled: Compiled = .always, enclosingType: String? = nil, enclosingFunction: String? = nil, inPreview: Bool = false) {
        self.location = location
        self.compiled = compiled
        self.enclosingType = enclosingType
        self.enclosingFunction = enclosingFunction
        self.inPreview = inPreview
    }

    /// Whether a release build ships it (or may: an unknown condition counts).
    public var inRelease: Bool { compiled == .always || compiled == .releaseOnly || compiled == .unknown }
}
