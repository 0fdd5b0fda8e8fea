import Foundation

/// Whether WebKit's CSS parser would accept a `css-display-none` selector list. WebKit drops a
/// rule whose selector fails to parse, silently. This check refuses what can never be a
/// selector list — an empty or blank one, unbalanced brackets, parentheses or quotes, a
/// trailing or doubled comma — and accepts the rest.
enum CSSSelectorCheck {
    static func isValid(_ selector: String) -> Bool {
        let trimmed = selector.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.first != ",", trimmed.last != "," else { return false }
        var stack: [Character] = []
        var quote: Character?
        var escaped = false
        var lastSignificant: Character?
        for character in trimmed {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "[", "(": stack.append(character)
            case "]": guard stack.popLast() == "[" else { return false }
            case ")": guard stack.popLast() == "(" else { return false }
            case ",": if lastSignificant == "," { return false }
            default: break
            }
            if !character.isWhitespace { lastSignificant = character }
        }
        return stack.isEmpty && quote == nil && !escaped
    }
}
