import Foundation

/// `#if` / `#ifdef` / `#ifndef` / `#elif` / `#else` / `#endif`, evaluated for an iOS device in
/// release and in debug at once. `DEBUG` is set in debug only (Xcode's default
/// `GCC_PREPROCESSOR_DEFINITIONS`), `TARGET_OS_IOS` and `TARGET_OS_IPHONE` are 1, the
/// simulator and other platforms 0; any other condition (`__IPHONE_OS_VERSION_MAX_ALLOWED >=
/// …`, a team's own flag) is unknown, and code under it counts as possibly shipped — said as
/// such, never dropped (audit-checks.md §11.2).
struct ObjCConditionals {
    /// Three-valued: a condition the audit cannot evaluate is neither.
    enum Truth: Equatable {
        case yes, no, unknown

        static prefix func ! (value: Truth) -> Truth {
            switch value {
            case .yes: return .no
            case .no: return .yes
            case .unknown: return .unknown
            }
        }

        static func && (left: Truth, right: Truth) -> Truth {
            if left == .no || right == .no { return .no }
            if left == .yes && right == .yes { return .yes }
            return .unknown
        }

        static func || (left: Truth, right: Truth) -> Truth {
            if left == .yes || right == .yes { return .yes }
            if left == .no && right == .no { return .no }
            return .unknown
        }
    }

    private struct Frame {
        /// Whether the enclosing code is active, per configuration.
        var outerRelease: Truth
        var outerDebug: Truth
        /// Whether an earlier branch of this `#if` chain was taken.
        var takenRelease: Truth
        var takenDebug: Truth
        var release: Truth
        var debug: Truth
    }

    private var stack: [Frame] = []
    /// Macros the file defines to a bare `0` or `1`, which `#if NAME` then reads.
    private var numericMacros: [String: Bool] = [:]

    var release: Truth { stack.last?.release ?? .yes }
    var debug: Truth { stack.last?.debug ?? .yes }

    var compiled: FactSite.Compiled {
        switch (release, debug) {
        case (.yes, .yes): return .always
        case (.no, .yes): return .debugOnly
        case (.yes, .no): return .releaseOnly
        case (.no, .no): return .never
        default: return .unknown
        }
    }

    /// Reads one directive line (without its `#`).
    mutating func apply(_ directive: String) {
        let (keyword, rest) = Self.split(directive)
        switch keyword {
        case "if": push(condition(rest))
        case "ifdef": push(defined(rest.trimmingBlanks()))
        case "ifndef": push(negated(defined(rest.trimmingBlanks())))
        case "elif", "elifdef", "elifndef":
            guard var frame = stack.popLast() else { return }
            var value: (Truth, Truth)
            switch keyword {
            case "elifdef": value = defined(rest.trimmingBlanks())
            case "elifndef": value = negated(defined(rest.trimmingBlanks()))
            default: value = condition(rest)
            }
            frame.release = frame.outerRelease && !frame.takenRelease && value.0
            frame.debug = frame.outerDebug && !frame.takenDebug && value.1
            frame.takenRelease = frame.takenRelease || value.0
            frame.takenDebug = frame.takenDebug || value.1
            stack.append(frame)
        case "else":
            guard var frame = stack.popLast() else { return }
            frame.release = frame.outerRelease && !frame.takenRelease
            frame.debug = frame.outerDebug && !frame.takenDebug
            frame.takenRelease = .yes
            frame.takenDebug = .yes
            stack.append(frame)
        case "endif":
            _ = stack.popLast()
        case "define":
            let parts = rest.trimmingBlanks().split(separator: " ", maxSplits: 1)
            if parts.count == 2, let name = parts.first {
                let value = parts[1].trimmingCharacters(in: [" ", "\t"])
                if value == "1" { numericMacros[String(name)] = true }
                if value == "0" { numericMacros[String(name)] = false }
            }
        default:
            break
        }
    }

    private mutating func push(_ value: (Truth, Truth)) {
        let outerRelease = release, outerDebug = debug
        stack.append(Frame(outerRelease: outerRelease, outerDebug: outerDebug, takenRelease: value.0, takenDebug: value.1,
                           release: outerRelease && value.0, debug: outerDebug && value.1))
    }

    private static func split(_ directive: String) -> (String, String) {
        let trimmed = Substring(directive).drop { $0 == " " || $0 == "\t" }
        let keyword = trimmed.prefix { $0.isLetter }
        return (String(keyword), String(trimmed.dropFirst(keyword.count)))
    }

    /// (release, debug) for `defined(NAME)` / `#ifdef NAME`.
    private func defined(_ name: String) -> (Truth, Truth) {
        switch name {
        case "DEBUG": return (.no, .yes)
        case "TARGET_OS_IOS", "TARGET_OS_IPHONE", "__OBJC__", "__APPLE__": return (.yes, .yes)
        default:
            if numericMacros[name] != nil { return (.yes, .yes) }
            return (.unknown, .unknown)
        }
    }

    /// A small expression grammar: `!`, `&&`, `||`, parentheses, `defined(X)`, `defined X`,
    /// `0`, `1` and known names; anything else is unknown.
    private func condition(_ text: String) -> (Truth, Truth) {
        var parser = ConditionParser(text: text, defined: defined, value: value)
        return parser.parse()
    }

    /// (release, debug) for a name used as a value in `#if NAME`.
    private func value(_ name: String) -> (Truth, Truth) {
        switch name {
        case "DEBUG": return (.no, .yes)
        case "TARGET_OS_IOS", "TARGET_OS_IPHONE": return (.yes, .yes)
        case "TARGET_OS_SIMULATOR", "TARGET_IPHONE_SIMULATOR", "TARGET_OS_OSX", "TARGET_OS_TV", "TARGET_OS_WATCH", "TARGET_OS_VISION", "TARGET_OS_MACCATALYST":
            return (.no, .no)
        case "0": return (.no, .no)
        case "1": return (.yes, .yes)
        default:
            if let known = numericMacros[name] { return known ? (.yes, .yes) : (.no, .no) }
            return (.unknown, .unknown)
        }
    }
}

private func negated(_ value: (ObjCConditionals.Truth, ObjCConditionals.Truth)) -> (ObjCConditionals.Truth, ObjCConditionals.Truth) {
    (!value.0, !value.1)
}

/// Recursive descent over a `#if` condition's text.
private struct ConditionParser {
    typealias Truth = ObjCConditionals.Truth
    private var tokens: [String]
    private var position = 0
    private let defined: (String) -> (Truth, Truth)
    private let value: (String) -> (Truth, Truth)

    init(text: String, defined: @escaping (String) -> (Truth, Truth), value: @escaping (String) -> (Truth, Truth)) {
        self.defined = defined
        self.value = value
        var tokens: [String] = []
        var current = ""
        var iterator = Array(text.unicodeScalars)[...]
        while let scalar = iterator.first {
            iterator = iterator.dropFirst()
            if scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
                continue
            }
            if !current.isEmpty { tokens.append(current); current = "" }
            if scalar == " " || scalar == "\t" { continue }
            if (scalar == "&" || scalar == "|" || scalar == "=" || scalar == "!" || scalar == "<" || scalar == ">"), let next = iterator.first,
               next == "=" || (next == scalar && scalar != "!" && scalar != "<" && scalar != ">") {
                tokens.append(String(scalar) + String(next))
                iterator = iterator.dropFirst()
                continue
            }
            tokens.append(String(scalar))
        }
        if !current.isEmpty { tokens.append(current) }
        self.tokens = tokens
    }

    mutating func parse() -> (Truth, Truth) {
        let result = disjunction(depth: 0)
        return position == tokens.count ? result : (.unknown, .unknown)
    }

    private func peek() -> String? { position < tokens.count ? tokens[position] : nil }

    private mutating func disjunction(depth: Int) -> (Truth, Truth) {
        var result = conjunction(depth: depth)
        while peek() == "||" {
            position += 1
            let right = conjunction(depth: depth)
            result = (result.0 || right.0, result.1 || right.1)
        }
        return result
    }

    private mutating func conjunction(depth: Int) -> (Truth, Truth) {
        var result = unary(depth: depth)
        while peek() == "&&" {
            position += 1
            let right = unary(depth: depth)
            result = (result.0 && right.0, result.1 && right.1)
        }
        return result
    }

    private mutating func unary(depth: Int) -> (Truth, Truth) {
        // Deep nesting is unknown rather than a deep recursion.
        guard depth < 64, let token = peek() else { position = tokens.count; return (.unknown, .unknown) }
        position += 1
        switch token {
        case "!":
            let operand = unary(depth: depth + 1)
            return (!operand.0, !operand.1)
        case "(":
            let inner = disjunction(depth: depth + 1)
            if peek() == ")" { position += 1 } else { position = tokens.count }
            return inner
        case "defined":
            if peek() == "(" {
                position += 1
                let name = peek() ?? ""
                position += 1
                if peek() == ")" { position += 1 }
                return defined(name)
            }
            let name = peek() ?? ""
            position += 1
            return defined(name)
        default:
            // A comparison (`__IPHONE_OS_VERSION_MAX_ALLOWED >= 160400`): unknown.
            if let next = peek(), ["==", "!=", ">=", "<=", ">", "<"].contains(next) {
                position += 2
                return (.unknown, .unknown)
            }
            return value(token)
        }
    }
}
