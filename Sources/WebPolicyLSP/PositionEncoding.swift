import WebPolicyRuntime

/// How the server and the editor count characters in a line (LSP 3.17 `PositionEncodingKind`).
/// webpolicy counts columns in Unicode scalars, which is `utf-32`: a client that offers it gets
/// the columns as they are; UTF-16, which every client understands, is the fallback.
public enum PositionEncoding: String, Sendable {
    case utf32 = "utf-32"
    case utf16 = "utf-16"
    case utf8 = "utf-8"

    /// The encoding to use among those the client offers (`general.positionEncodings`, in its
    /// order of preference); UTF-16 when it offers none.
    public static func chosen(from offered: [String]) -> PositionEncoding {
        if offered.contains(utf32.rawValue) { return .utf32 }
        return offered.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
    }

    /// The 0-based character offset of 1-based scalar `column` on line `line` of `file`.
    func character(of position: SourcePosition, in file: SourceFile?) -> Int {
        let scalars = max(position.column - 1, 0)
        guard self != .utf32, let file, position.line >= 1 else { return scalars }
        var count = 0
        for scalar in file.line(position.line).prefix(scalars) {
            count += self == .utf16 ? scalar.utf16.count : scalar.utf8.count
        }
        // A column past the line's end (a range ending after its last character) keeps counting.
        return count + max(scalars - file.line(position.line).count, 0)
    }

    /// The 1-based scalar column of a 0-based character offset on a line of `file`.
    func column(ofCharacter character: Int, line: Int, in file: SourceFile?) -> Int {
        guard self != .utf32, let file, line >= 1 else { return character + 1 }
        var units = 0, column = 1
        for scalar in file.line(line) {
            if units >= character { break }
            units += self == .utf16 ? scalar.utf16.count : scalar.utf8.count
            column += 1
        }
        return column + max(character - units, 0)
    }
}
