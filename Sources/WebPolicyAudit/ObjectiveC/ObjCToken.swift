/// One token of Objective-C source, as clang's raw lexer splits it (`clang -cc1
/// -dump-raw-tokens`, the reference the tokenizer's tests compare with): comments are kept
/// apart, a preprocessor line is one token, `@"…"` is one string.
struct ObjCToken: Equatable {
    enum Kind: Equatable {
        case identifier
        /// `@interface`, `@implementation`, `@end`, `@property`, `@selector`…
        case atKeyword
        /// `"…"` or `@"…"`; `text` is the value, escapes resolved.
        case string
        case character
        case number
        case punctuation
        /// A whole `#…` line, continuation lines included; `text` is the directive's body.
        case directive
    }

    var kind: Kind
    var text: String
    /// Byte offsets of the token in the file.
    var start: Int
    var end: Int

    func isPunctuation(_ value: String) -> Bool { kind == .punctuation && text == value }
    func isIdentifier(_ value: String) -> Bool { kind == .identifier && text == value }
}
