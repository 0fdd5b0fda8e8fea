import WebPolicyRuntime

extension Policy {
    /// The schemes `interception:` serves (lowercase): the app's own, for lint and the audit.
    public var interceptedSchemes: Set<String> {
        Set(interception.map { $0.scheme.value.lowercased() })
    }
}
