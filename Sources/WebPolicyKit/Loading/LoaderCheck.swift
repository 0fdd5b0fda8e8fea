import WebPolicyRuntime

/// The checks the loader makes before any lint rule runs. They are always errors and cannot be
/// turned off: a file that fails them has no meaning the rules or the compiler could use.
public enum LoaderCheck: String, DocumentedCheck {
    case fileUnreadable = "file-unreadable"
    case fileEmpty = "file-empty"
    case fileBinary = "file-binary"
    case fileEncoding = "file-encoding"
    case yamlSyntax = "yaml-syntax"
    case yamlDuplicateKey = "yaml-duplicate-key"
    case yamlLimits = "yaml-limits"
    case yamlTag = "yaml-tag"
    case yamlMultipleDocuments = "yaml-multiple-documents"
    case unknownKey = "unknown-key"
    case wrongType = "wrong-type"
    case missingKey = "missing-key"
    case invalidBoolean = "invalid-boolean"
    case invalidValue = "invalid-value"
    case conflictingKeys = "conflicting-keys"
    case unsupportedVersion = "unsupported-version"
    case includeNotFound = "include-not-found"
    case includeCycle = "include-cycle"
    case includeInvalid = "include-invalid"


    public var summary: String {
        switch self {
        case .fileUnreadable: return "The file (or an included file) cannot be read, or is a directory."
        case .fileEmpty: return "The file is empty or holds only comments."
        case .fileBinary: return "The file holds NUL bytes: it is binary, not a YAML policy."
        case .fileEncoding: return "The file is not valid UTF-8 (UTF-16 and Latin-1 included); the error points at the first bad byte."
        case .yamlSyntax: return "The YAML does not parse (libyaml's message and position), or an alias names no anchor."
        case .yamlDuplicateKey: return "A key appears twice in one mapping; the second is ignored and pointed at, with the first as a note."
        case .yamlLimits: return "Aliases expand the document beyond a fixed budget (an alias bomb), or it nests deeper than 256 levels."
        case .yamlTag: return "A node carries an application tag (`!custom`); policies are plain YAML."
        case .yamlMultipleDocuments: return "The file holds a second YAML document (`---`)."
        case .unknownKey: return "A key the format does not define, with the nearest valid key and the allowed set."
        case .wrongType: return "A value of the wrong kind: a string where a list belongs, a mapping where a string belongs, an empty value."
        case .missingKey: return "A required key is absent (`webpolicy`, `name`, a rule's `action`, …)."
        case .invalidBoolean: return "A boolean other than `true` or `false` (`yes`, `on`, `\"true\"` are refused, as in SwiftLint)."
        case .invalidValue: return "A value outside its closed set (an action, a resource type, …), with the allowed values, or a malformed version, date or number."
        case .conflictingKeys: return "Keys that exclude each other (`url-filter` with `hosts`) or an action parameter on the wrong action (`selector` on `block`)."
        case .unsupportedVersion: return "The `webpolicy:` format version is not one this webpolicy reads."
        case .includeNotFound: return "An `include:` entry names a file that does not exist."
        case .includeCycle: return "Includes form a cycle; the message lists it."
        case .includeInvalid: return "An included file sets what only the including policy may (`target`)."
        }
    }
}
