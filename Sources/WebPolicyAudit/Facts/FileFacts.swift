import WebPolicyRuntime

/// What one file yields: its facts, and the declarations the cross-file steps need (the
/// WKWebView subclass closure, constants resolved across the module).
public struct FileFacts: Sendable {
    public enum Language: String, Sendable {
        case swift
        case objectiveC = "objective-c"
        case plist
        case interfaceBuilder = "interface-builder"
        case buildSettings = "build-settings"
    }

    public var path: String
    public var language: Language
    public var facts: [AppFact] = []
    public var classes: [ClassDeclaration] = []
    /// The names of every type the file declares (classes, structs, enums, actors).
    public var declaredTypes: [String] = []
    public var constants: [ConstantDeclaration] = []
    /// The raw values of each `String` enum's cases, in order (`CallMessage.allCases`).
    public var enumCases: [String: [String]] = [:]
    /// Calls of a type's initialiser (`AppWebView(frame:configuration:)`), kept until the
    /// subclass closure says which are web views.
    public var constructions: [AppFact] = []
    /// Info.plist and entitlements keys, for the plist checks.
    public var plist: InfoPlist?
    /// The iOS deployment targets a project file, xcconfig, XcodeGen spec or package manifest sets.
    public var deploymentTargets: [String] = []
    /// Booleans the file declares (`var isProduction: Bool { … }`), for run-time conditions
    /// tested in other files.
    public var flags: [FlagDeclaration] = []
    /// Functions of the file that escape quotes or JSON-encode a value into script text: a
    /// value spliced through one in another file is safe too.
    public var escapers: [String] = []
    /// Functions of the file that open a URL parameter with the system, for hand-offs that
    /// reach them from other files.
    public var openSummaries: [OpenSummary] = []
    /// The reader could not make sense of part of the file (Swift that does not parse, a
    /// malformed plist): said in the report, never a crash, never silent.
    public var problems: [ReadProblem] = []

    public init(path: String, language: Language) {
        self.path = path
        self.language = language
    }
}

/// `class AppWebView: WKWebView`, `@interface AppWebView : WKWebView`.
public struct ClassDeclaration: Sendable, Hashable {
    public var name: String
    public var supertypes: [String]
    public var site: FactSite

    public init(name: String, supertypes: [String], site: FactSite) {
        self.name = name
        self.supertypes = supertypes
        self.site = site
    }
}

/// `let name = "native"`, `static let scheme = "app"`, `case payments` of a `String` enum,
/// `#define BRIDGE @"native"`, `NSString *const kName = @"native"`.
public struct ConstantDeclaration: Sendable, Hashable {
    /// The name as code refers to it: `name`, and `Type.name` for a member.
    public var names: [String]
    public var value: CodeValue

    public init(names: [String], value: CodeValue) {
        self.names = names
        self.value = value
    }
}

/// A part of a file the audit could not read, at its place.
public struct ReadProblem: Error, Sendable, Hashable {
    public var message: String
    public var location: SourceLocation

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }
}
