/// A binding the app asks for: a role of `runtime-hosts` and the URL of the server it will use
/// for it (only its origin counts).
public struct BindRequest: Sendable {
    public var role: String
    public var url: CanonicalURL

    public init(role: String, url: CanonicalURL) {
        self.role = role
        self.url = url
    }
}
