/// A place in a source file: 1-based line and column, columns counted in Unicode scalars as
/// libyaml counts them (so a caret lines up under `é` and `日` alike).
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// A half-open span of source text: `end` is the position just after the last character.
public struct SourceRange: Hashable, Sendable {
    public var start: SourcePosition
    public var end: SourcePosition

    public init(start: SourcePosition, end: SourcePosition) {
        self.start = start
        self.end = max(start, end)
    }

    /// A one-character span at `position`.
    public init(at position: SourcePosition) {
        self.init(start: position, end: SourcePosition(line: position.line, column: position.column + 1))
    }

    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }
}

/// A range inside a named file; what every diagnostic points at.
public struct SourceLocation: Hashable, Sendable {
    /// The file as the user named it (relative paths stay relative), with `/` separators.
    public var path: String
    public var range: SourceRange

    public init(path: String, range: SourceRange) {
        self.path = path
        self.range = range
    }

    public var start: SourcePosition { range.start }
}

/// A value together with where it was written, so every later check can point back at it.
public struct Located<Value> {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
