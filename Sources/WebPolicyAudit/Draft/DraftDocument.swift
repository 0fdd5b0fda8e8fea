import WebPolicyKit
import WebPolicyRuntime

/// A drafted policy before it is text: sections of values, each with the comments that say
/// where it came from and what the team must decide. Values are written by `YAMLWriter`, so
/// the draft quotes exactly as every other policy webpolicy writes; only comments are text.
struct DraftDocument {
    struct Section {
        /// `# …` lines above the section.
        var comments: [String]
        var key: String
        var value: Value
    }

    enum Value {
        /// A mapping or scalar, written whole.
        case plain(JSONValue)
        /// A list whose items may carry comments of their own (a bridge's `# decide:`).
        case items([(comments: [String], value: JSONValue)])
    }

    var header: [String] = []
    var sections: [Section] = []

    mutating func add(_ key: String, _ value: JSONValue, comments: [String] = []) {
        sections.append(Section(comments: comments, key: key, value: .plain(value)))
    }

    mutating func add(_ key: String, items: [(comments: [String], value: JSONValue)], comments: [String] = []) {
        guard !items.isEmpty else { return }
        sections.append(Section(comments: comments, key: key, value: .items(items)))
    }

    var text: String {
        var output = header.map { Self.comment($0, indent: "") }.joined()
        for (index, section) in sections.enumerated() {
            if index > 0, !section.comments.isEmpty || sectionIsBlock(sections[index - 1]) { output += "\n" }
            output += section.comments.map { Self.comment($0, indent: "") }.joined()
            switch section.value {
            case .plain(let value):
                output += YAMLWriter.render(.object([(section.key, value)]))
            case .items(let items):
                output += YAMLWriter.quoted(section.key) + ":\n"
                for item in items {
                    output += item.comments.map { Self.comment($0, indent: "  ") }.joined()
                    output += YAMLWriter.render(.array([item.value])).split(separator: "\n", omittingEmptySubsequences: false)
                        .dropLast().map { "  " + $0 + "\n" }.joined()
                }
            }
        }
        return output
    }

    private func sectionIsBlock(_ section: Section) -> Bool {
        if case .plain(let value) = section.value, case .object = value { return true }
        if case .items = section.value { return true }
        return false
    }

    /// A comment, each line of it `#`-prefixed, wrapped at about 96 columns.
    static func comment(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty, indent.count + 2 + line.count + 1 + word.count > 96 {
                // A comment line that starts `webpolicy:` is a suppression to lint: keep the word
                // before it on the same line.
                if word.hasPrefix("webpolicy:"), let space = line.lastIndex(of: " ") {
                    lines.append(String(line[..<space]))
                    line = String(line[line.index(after: space)...]) + " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(line)
        // A line break or control character in a comment would end it early: written as a space.
        return lines.map { indent + "# " + String($0.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }) + "\n" }.joined()
    }
}
