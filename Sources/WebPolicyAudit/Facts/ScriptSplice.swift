import WebPolicyRuntime

/// A value spliced into script text (`"f('\(name)')"`, `"f(" + name + ")"`, a `%@` of
/// `String(format:)`), with where the Swift reader's value flow says it came from. A splice is
/// safe when every origin is (a literal, a number, an escaped or JSON-encoded value), an error
/// when one is chosen by the page, and a warning when the audit cannot see it.
public struct ScriptSplice: Sendable, Hashable {
    /// The spliced expression as written: `callbackName`.
    public var expression: String
    /// Where it is spliced.
    public var location: SourceLocation
    /// Inside quotes of the script text (`'\(x)'`): JSON text there is not quote-safe.
    public var quoted: Bool
    public var origins: [ValueOrigin]
    /// The text is built in another function than the one that runs it (a wrapper's caller).
    public var builtElsewhere: Bool

    public init(expression: String, location: SourceLocation, quoted: Bool, origins: [ValueOrigin], builtElsewhere: Bool = false) {
        self.expression = expression
        self.location = location
        self.quoted = quoted
        self.origins = origins
        self.builtElsewhere = builtElsewhere
    }
}

/// Where a value comes from, as far as the file's own code shows it.
public struct ValueOrigin: Sendable, Hashable {
    public enum Kind: String, Sendable {
        /// A string literal, or a constant or ternary of them.
        case literal
        /// A number or Boolean: a literal, arithmetic, a parameter or value declared as one,
        /// `String(format:)` of numeric specifiers.
        case number
        /// Through a function that escapes quotes or JSON-encodes a string into a literal
        /// (`String(reflecting:)`, an escaper of the app's own).
        case escaped
        /// JSON text (`JSONSerialization`, `JSONEncoder`): safe unquoted, not inside quotes.
        case json
        /// Chosen by the page: a script message's body, a navigation's URL, the page's title.
        case page
        /// A URL handed to the app from outside it (a deep link).
        case openedURL = "opened-url"
        /// What the file does not show: a property of another type, a call it cannot see, a
        /// parameter whose callers are elsewhere.
        case unknown
    }

    public var kind: Kind
    /// What it is, for a message: `message.body`, `a parameter of handleElementFocus(elementId:), called from outside this file`.
    public var detail: String
    /// The line where the value was read or set, when the file shows it.
    public var site: SourceLocation?
    /// The file's own functions the value passed through on its way: `handle(messageName:messageBody:)`.
    public var through: [String]
    /// The functions applied to the value that the file does not define (an escaper of
    /// another file, or one `.webpolicy.yml` names, makes it safe).
    public var calls: [String]
    /// For a value the page or another app chose: which input it is.
    public var input: PageInput?
    /// For a parameter whose callers are in other files: which one, so the module can follow it.
    public var parameter: FunctionArgument?

    public init(_ kind: Kind, _ detail: String, site: SourceLocation? = nil, through: [String] = [], calls: [String] = [],
                input: PageInput? = nil, parameter: FunctionArgument? = nil) {
        self.kind = kind
        self.detail = detail
        self.site = site
        self.through = through
        self.calls = calls
        self.input = input
        self.parameter = parameter
    }

    /// The inputs of a web view a page chooses, and the URL another app opens the app with.
    public enum PageInput: String, Sendable {
        /// A new window's request (`createWebViewWith`'s navigation action).
        case newWindow = "new-window"
        /// A navigation's request or response, a frame's origin.
        case navigation
        /// A script message (its body, its frame).
        case message
        /// The page's title or URL, read off the view.
        case page
        /// The URL the app was opened with (`application(_:open:options:)`, `scene(_:openURLContexts:)`).
        case openedURL = "opened-url"

        public var phrase: String {
            switch self {
            case .newWindow: return "the new window's request"
            case .navigation: return "the navigation's request"
            case .message: return "the script message"
            case .page: return "the page"
            case .openedURL: return "the URL the app was opened with"
            }
        }
    }

    /// Safe in script text wherever it is spliced.
    public var isSafeAnywhere: Bool { kind == .literal || kind == .number || kind == .escaped }
    /// Chosen outside the app: the page, or whoever opened the URL.
    public var isHostile: Bool { kind == .page || kind == .openedURL }
}
