import WebPolicyRuntime

/// A URL the page chose — a new window's, a navigation's, one a script message carries —
/// handed to the system (`UIApplication.shared.open`), and the schemes that can reach that call
/// after the code's own tests. The system opens any installed app's scheme without asking, so
/// a hand-off of every scheme lets the page launch other apps with arguments it picks.
public struct HandOff: Sendable, Hashable {
    public enum Trigger: String, Sendable {
        /// `webView(_:createWebViewWith:for:windowFeatures:)`: `window.open` or a `target=_blank` link.
        case newWindow = "new-window"
        /// `webView(_:decidePolicyFor:decisionHandler:)`: a navigation of the page.
        case navigation
        /// A script message's body.
        case message
    }

    public var trigger: Trigger
    public var schemes: SchemeScope
    /// The call that opens the URL, when it is known (it may be in another function or file).
    public var openSite: SourceLocation?
    /// The app's own functions the URL passed through on its way to that call.
    public var through: [String]
    /// A function of the app's, outside this file, that the URL is handed to: resolved across
    /// the module by the summaries of the files that define it (nil once resolved).
    public var pending: FunctionArgument?

    public init(trigger: Trigger, schemes: SchemeScope, openSite: SourceLocation? = nil, through: [String] = [], pending: FunctionArgument? = nil) {
        self.trigger = trigger
        self.schemes = schemes
        self.openSite = openSite
        self.through = through
        self.pending = pending
    }
}

/// A function of the app's by name and argument labels (`openURLInBrowser(_:_:)`), and one of
/// its arguments.
public struct FunctionArgument: Sendable, Hashable {
    public var function: String
    public var index: Int

    public init(function: String, index: Int) {
        self.function = function
        self.index = index
    }
}

/// What a file's function does with a URL parameter: opens it, under the tests around the
/// call (`openURLInBrowser(_:_:)` opens every scheme but http and https with the system).
public struct OpenSummary: Sendable, Hashable {
    public var parameter: FunctionArgument
    public var schemes: SchemeScope
    public var openSite: SourceLocation
    public var through: [String]
    /// The URL goes on to another function outside the file.
    public var pending: FunctionArgument?

    public init(parameter: FunctionArgument, schemes: SchemeScope, openSite: SourceLocation, through: [String] = [], pending: FunctionArgument? = nil) {
        self.parameter = parameter
        self.schemes = schemes
        self.openSite = openSite
        self.through = through
        self.pending = pending
    }
}

/// The URL schemes that can reach a call, after the tests around it.
public enum SchemeScope: Sendable, Hashable {
    /// No test of the scheme.
    case any
    /// Every scheme but these (`guard ["http", "https"].contains(scheme) else { open(url) }`).
    case anyExcept([String])
    /// Only these (`if url.scheme == "tel"`, `case "mailto", "tel":`).
    case only([String])
    /// Only schemes `canOpenURL` answers for: those `LSApplicationQueriesSchemes` lists.
    case queried

    /// Both tests hold.
    public func intersection(_ other: SchemeScope) -> SchemeScope {
        switch (self, other) {
        case (.any, let scope), (let scope, .any): return scope
        case (.only(let left), .only(let right)): return .only(left.filter(right.contains))
        case (.only(let allowed), .anyExcept(let excluded)), (.anyExcept(let excluded), .only(let allowed)):
            return .only(allowed.filter { !excluded.contains($0) })
        case (.anyExcept(let left), .anyExcept(let right)): return .anyExcept(Array(Set(left + right)).sorted())
        case (.queried, .only(let allowed)), (.only(let allowed), .queried): return .only(allowed)
        case (.queried, _), (_, .queried): return .queried
        }
    }

    /// Every scheme, or every scheme but a few: the page can reach any app.
    public var isUnbounded: Bool {
        switch self {
        case .any, .anyExcept: return true
        case .only, .queried: return false
        }
    }

    /// For a message: "every scheme", "every scheme but http and https", "tel and mailto".
    public var phrase: String {
        switch self {
        case .any: return "of every scheme"
        case .anyExcept(let schemes): return "of every scheme but " + Self.list(schemes)
        case .only(let schemes): return schemes.isEmpty ? "of no scheme" : "of the schemes " + Self.list(schemes)
        case .queried: return "of the schemes LSApplicationQueriesSchemes lists"
        }
    }

    static func list(_ schemes: [String]) -> String {
        guard schemes.count > 1 else { return schemes.first ?? "" }
        return schemes.dropLast().joined(separator: ", ") + " and " + schemes.last!
    }
}
