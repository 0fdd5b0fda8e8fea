import WebPolicyRuntime

/// Requests the app answers itself: a custom scheme through `WKURLSchemeHandler`, or http(s)
/// hosts through interception (private API on WKWebView).
public final class InterceptionRule: Sendable {
    public let location: SourceLocation
    public let id: LocatedString?
    public let description: LocatedString?
    public let scheme: LocatedString
    public let hosts: Located<[LocatedString]>?
    public let paths: Located<[LocatedString]>?
    public let methods: Located<[Located<RequestMethod>]>?
    public let serve: LocatedString?
    public let handler: LocatedString?

    public init(
        location: SourceLocation,
        id: LocatedString? = nil,
        description: LocatedString? = nil,
        scheme: LocatedString,
        hosts: Located<[LocatedString]>? = nil,
        paths: Located<[LocatedString]>? = nil,
        methods: Located<[Located<RequestMethod>]>? = nil,
        serve: LocatedString? = nil,
        handler: LocatedString? = nil
    ) {
        self.location = location
        self.id = id
        self.description = description
        self.scheme = scheme
        self.hosts = hosts
        self.paths = paths
        self.methods = methods
        self.serve = serve
        self.handler = handler
    }
}
