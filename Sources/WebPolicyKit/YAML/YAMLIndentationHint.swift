import WebPolicyRuntime

/// What a person needs after libyaml's "did not find expected key" or "did not find expected
/// '-' indicator": YAML reads structure from columns, so the hint names the column of the
/// offending line and the columns of what it could belong to — the list item above it, its
/// keys, the line before — and says which move makes it one of them.
enum YAMLIndentationHint {
    /// A line of the file, as indentation sees it.
    struct Line {
        let number: Int
        /// 1-based column of the first character that is not a space.
        let column: Int
        /// `- ` starts the line: a list item.
        let isItem: Bool
        /// For an item, the column where its content (its first key) starts.
        let contentColumn: Int
        /// `key:` followed by a plain value on the same line.
        let hasInlineValue: Bool
    }

    static func line(_ number: Int, in file: SourceFile) -> Line? {
        guard number >= 1, number <= file.lineCount else { return nil }
        let scalars = Array(file.line(number))
        var index = 0
        while index < scalars.count, scalars[index] == " " { index += 1 }
        guard index < scalars.count, scalars[index] != "#" else { return nil }
        let column = index + 1
        var isItem = false
        var content = index
        if scalars[index] == "-", index + 1 == scalars.count || scalars[index + 1] == " " {
            isItem = true
            content = index + 1
            while content < scalars.count, scalars[content] == " " { content += 1 }
        }
        let rest = String(String.UnicodeScalarView(scalars[content...]))
        var hasInlineValue = false
        if let colon = rest.range(of: ": ") {
            let value = rest[colon.upperBound...].drop { $0 == " " }
            hasInlineValue = !value.isEmpty && !value.hasPrefix("#") && !value.hasPrefix("|") && !value.hasPrefix(">")
                && !value.hasPrefix("\"") && !value.hasPrefix("'") && !value.hasPrefix("[") && !value.hasPrefix("{")
        }
        return Line(number: number, column: column, isItem: isItem, contentColumn: content + 1, hasInlineValue: hasInlineValue)
    }

    /// The nearest line above `number` that holds something (not blank, not a comment).
    static func previous(before number: Int, in file: SourceFile) -> Line? {
        var candidate = number - 1
        while candidate >= 1 {
            if let found = line(candidate, in: file) { return found }
            candidate -= 1
        }
        return nil
    }

    /// The nearest list item above `number` that starts at or left of `column`: the entry the
    /// line would belong to.
    static func enclosingItem(before number: Int, atOrLeftOf column: Int, in file: SourceFile) -> Line? {
        var candidate = number - 1
        while candidate >= 1 {
            if let found = line(candidate, in: file), found.column <= column {
                if found.isItem { return found }
                // A key left of the column closes every list to its right.
                if found.column < column { return nil }
            }
            candidate -= 1
        }
        return nil
    }

    /// The nearest list item above an item at `column`, at any column, unless a key left of
    /// `column` comes first (then the item starts a list of its own).
    static func siblingItem(before number: Int, column: Int, in file: SourceFile) -> Line? {
        var candidate = number - 1
        while candidate >= 1 {
            if let found = line(candidate, in: file) {
                if found.isItem { return found }
                if found.column < column { return nil }
            }
            candidate -= 1
        }
        return nil
    }

    /// The hint for a structure error at `position`; nil when the columns explain nothing.
    static func hint(problem: String, at position: SourcePosition, in file: SourceFile) -> String? {
        guard let here = line(position.line, in: file) else { return nil }
        let isStructure = problem.containsBytes(of: "did not find expected key") || problem.containsBytes(of: "did not find expected '-' indicator")
        let isValueInValue = problem.containsBytes(of: "mapping values are not allowed")
        if isValueInValue {
            // A deeper line after `key: value` continues that value (a multi-line plain
            // scalar), where a second ': ' is not allowed.
            guard let above = previous(before: here.number, in: file), above.hasInlineValue, here.column > above.contentColumn else { return nil }
            return "this line starts at column \(here.column), deeper than the key on line \(above.number) (column \(above.contentColumn)), so YAML reads it as more of that key's value: indent it to column \(above.contentColumn) to make it a key of its own, or quote the value if it holds ': '"
        }
        guard isStructure else { return nil }
        if here.isItem {
            if let item = siblingItem(before: here.number, column: here.column, in: file), item.column != here.column {
                return "this item's '-' is at column \(here.column), but the items of its list (line \(item.number)) have theirs at column \(item.column): items of one list start at the same column"
            }
        } else if let item = enclosingItem(before: here.number, atOrLeftOf: here.column, in: file) {
            if here.column == item.column {
                return "this line is at the column of the list's '-' (line \(item.number), column \(item.column)), so it is not part of the entry above: indent it to column \(item.contentColumn) to add it to that entry, or start it with '- ' to make a new entry"
            }
            if here.column != item.contentColumn {
                return "this key starts at column \(here.column), but the keys of its entry (line \(item.number)) start at column \(item.contentColumn): keys of one mapping start at the same column"
            }
        }
        guard let above = previous(before: here.number, in: file) else { return nil }
        let aboveKeys = above.isItem ? above.contentColumn : above.column
        guard aboveKeys != here.column else { return nil }
        return "this line starts at column \(here.column), the line above (line \(above.number)) at column \(aboveKeys): lines of one mapping or list start at the same column, and a nested one goes under a key that ends with ':'"
    }
}
