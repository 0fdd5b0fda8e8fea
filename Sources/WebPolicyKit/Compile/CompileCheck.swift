import WebPolicyRuntime

/// Checks `webpolicy compile` makes on its own output, after lint passed.
public enum CompileCheck: String, DocumentedCheck {
    case listSize = "compile-list-size"
    case selfCheck = "compile-self-check"


    public var summary: String {
        switch self {
        case .listSize: return "A compiled content-blocker list is larger than about 20 MB of JSON, where WebKit's compile time and memory become a problem on devices (warning); a list the policy references (`content-rule-lists:`), or a bare list given to lint, has more rules than WebKit accepts for the target (error: WebKit refuses the whole list)."
        case .selfCheck: return "webpolicy's port of WebKit's parser refused a list webpolicy itself produced, or the engine image of a list could not be built from the manifest it wrote; this is a webpolicy bug, and nothing is written (error)."
        }
    }
}
