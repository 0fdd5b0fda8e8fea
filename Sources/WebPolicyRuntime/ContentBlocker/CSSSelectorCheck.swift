/// Whether WebKit's CSS parser could accept a `css-display-none` selector list. WebKit drops a
/// rule whose selector fails to parse, without an error ("Skip rules with invalid selectors to
/// be backwards-compatible", `loadAction`). This check refuses what can never be a selector
/// list — an empty or blank one, unbalanced brackets, parentheses or quotes, an empty item
/// between commas, a dangling escape — and accepts the rest: it is no CSS parser.
package enum CSSSelectorCheck {
    package struct Problem: Equatable {
        /// Scalar offset of the offending character in the selector.
        package var offset: Int
        package var message: String
    }

    package static func isValid(_ selector: String) -> Bool {
        problem(in: selector) == nil
    }

    /// Unicode's White_Space, answered for ASCII without the property tables (a real list's
    /// 9,207 selectors, most of them long lists: the tables were 1 % of building its engine).
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    package static func problem(in selector: String) -> Problem? {
        let scalars = Array(selector.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }) else {
            return Problem(offset: 0, message: "the selector is empty")
        }
        var open: [(scalar: Unicode.Scalar, offset: Int)] = []
        var quote: (scalar: Unicode.Scalar, offset: Int)?
        var escapeAt: Int?
        var itemIsEmpty = true
        var lastComma: Int?
        for offset in first..<scalars.count {
            let scalar = scalars[offset]
            if escapeAt != nil { escapeAt = nil; continue }
            if scalar == "\\" { escapeAt = offset; itemIsEmpty = false; continue }
            if let current = quote {
                if scalar == current.scalar { quote = nil }
                continue
            }
            switch scalar {
            case "\"", "'": quote = (scalar, offset)
            case "[", "(": open.append((scalar, offset))
            case "]", ")":
                guard let last = open.popLast(), last.scalar == (scalar == "]" ? "[" : "(") else {
                    return Problem(offset: offset, message: "'\(scalar)' closes nothing that is open")
                }
            case "," where open.isEmpty:
                if itemIsEmpty { return Problem(offset: offset, message: "a comma with no selector before it") }
                itemIsEmpty = true
                lastComma = offset
                continue
            default: break
            }
            if !isWhitespace(scalar) { itemIsEmpty = false }
        }
        if let escapeAt { return Problem(offset: escapeAt, message: "a backslash escapes nothing") }
        if let quote { return Problem(offset: quote.offset, message: "the quote \(quote.scalar) is never closed") }
        if let unclosed = open.last { return Problem(offset: unclosed.offset, message: "'\(unclosed.scalar)' is never closed") }
        if itemIsEmpty, let lastComma { return Problem(offset: lastComma, message: "a comma with no selector after it") }
        return nil
    }
}
