import WebPolicyRuntime

/// `explain --format html`: the request and its verdict first, then each step of the pipeline
/// (the numbered sections of the text explanation) under a heading of its own.
public enum ExplainHTML {
    public static func render(url: String, explanation: String, verdict: Verdict) -> String {
        let e = HTMLDocument.escape
        var intro: [Substring] = []
        var steps: [(title: Substring, lines: [Substring])] = []
        for line in explanation.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first.isNumber, line.contains(". "), line.prefix(while: \.isNumber).count < 3,
               line.dropFirst(line.prefix(while: \.isNumber).count).hasPrefix(". ") {
                steps.append((line, []))
            } else if steps.isEmpty {
                intro.append(line)
            } else {
                steps[steps.count - 1].lines.append(line)
            }
        }
        func block(_ lines: [Substring]) -> String {
            let text = lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
            return text.isEmpty ? "" : "<pre>\(e(text))</pre>\n"
        }
        var body = "<section aria-labelledby=\"request\">\n<h2 id=\"request\">The request</h2>\n<p>\(HTMLDocument.badge(verdict.rawValue)) <code>\(e(url))</code></p>\n" + block(intro) + "</section>\n"
        body += "<section aria-labelledby=\"steps\">\n<h2 id=\"steps\">Step by step</h2>\n"
        for (index, step) in steps.enumerated() {
            body += "<h3 id=\"step-\(index + 1)\">\(e(String(step.title)))</h3>\n" + block(step.lines)
        }
        body += "</section>"
        let data = JSONValue.object([("url", .string(url)), ("verdict", .string(verdict.rawValue)), ("explanation", .string(explanation))]).serialized()
        return HTMLDocument.page(title: "webpolicy explain: \(verdict.rawValue) \(url)", heading: "webpolicy explain",
                                 verdict: "\(verdict.rawValue.prefix(1).uppercased() + verdict.rawValue.dropFirst()): \(url)",
                                 failed: verdict == .block, body: body, data: data)
    }
}
