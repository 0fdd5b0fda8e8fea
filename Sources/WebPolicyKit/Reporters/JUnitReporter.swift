import WebPolicyRuntime

/// JUnit XML, as CI test-report viewers read it: a test suite per linted file. A file without
/// diagnostics is one passing test case; each error is a failing test case; warnings and infos
/// are passing test cases whose output carries the message (`--strict` makes warnings errors).
/// For the audit (`junitCases: .perRuleAndFile`), a suite per file with findings and a case per
/// rule in it, failing when one of them is an error.
public enum JUnitReporter: Reporter {
    public static let identifier = "junit"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        if options.junitCases == .perRuleAndFile { return renderByRule(report, options: options) }
        var byFile: [String: [Diagnostic]] = [:]
        for diagnostic in report.diagnostics { byFile[diagnostic.location.path, default: []].append(diagnostic) }
        let files = (report.lintedFiles + byFile.keys.filter { !report.lintedFiles.contains($0) }.sorted())

        var suites = ""
        var totalTests = 0
        var totalFailures = 0
        for file in files {
            let diagnostics = byFile[file] ?? []
            let failures = diagnostics.filter { $0.severity == .error }.count
            var cases = ""
            if diagnostics.isEmpty {
                cases += "    <testcase name=\"webpolicy lint\" classname=\"\(escape(file))\"/>\n"
            }
            for diagnostic in diagnostics {
                let name = "\(diagnostic.ruleID) at \(diagnostic.location.start)"
                let text = Self.text(of: diagnostic, options: options)
                cases += "    <testcase name=\"\(escape(name))\" classname=\"\(escape(file))\">\n"
                if diagnostic.severity == .error {
                    cases += "      <failure type=\"\(escape(diagnostic.ruleID))\" message=\"\(escape(diagnostic.message))\">\(escape(text))</failure>\n"
                } else {
                    cases += "      <system-out>\(escape(text))</system-out>\n"
                }
                cases += "    </testcase>\n"
            }
            let tests = max(diagnostics.count, 1)
            totalTests += tests
            totalFailures += failures
            suites += "  <testsuite name=\"\(escape(file))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n\(cases)  </testsuite>\n"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="\(escape(options.title))" tests="\(totalTests)" failures="\(totalFailures)" errors="0">
        \(suites)</testsuites>

        """
    }

    private static func text(of diagnostic: Diagnostic, options: ReporterOptions) -> String {
        var text = "\(diagnostic.location.path):\(diagnostic.location.start): \(diagnostic.severity.rawValue): \(diagnostic.message)"
        if let hint = diagnostic.hint, hint != diagnostic.fix?.description { text += "\nhint: \(hint)" }
        if let fix = diagnostic.fix { text += "\nfix: \(fix.description) (\(options.command(for: fix)))" }
        return text
    }

    /// A suite per file with findings, a case per rule there: one line of the report per place
    /// the rule found something, the case failing when any is an error.
    private static func renderByRule(_ report: LintReport, options: ReporterOptions) -> String {
        var byFile: [(String, [Diagnostic])] = []
        for diagnostic in report.diagnostics {
            if let index = byFile.firstIndex(where: { $0.0 == diagnostic.location.path }) { byFile[index].1.append(diagnostic) } else { byFile.append((diagnostic.location.path, [diagnostic])) }
        }
        var suites = ""
        var totalTests = 0
        var totalFailures = 0
        for (file, diagnostics) in byFile {
            var rules: [(String, [Diagnostic])] = []
            for diagnostic in diagnostics {
                if let index = rules.firstIndex(where: { $0.0 == diagnostic.ruleID }) { rules[index].1.append(diagnostic) } else { rules.append((diagnostic.ruleID, [diagnostic])) }
            }
            var cases = ""
            var failures = 0
            for (rule, found) in rules {
                let text = found.map { Self.text(of: $0, options: options) }.joined(separator: "\n\n")
                cases += "    <testcase name=\"\(escape(rule))\" classname=\"\(escape(file))\">\n"
                if let error = found.first(where: { $0.severity == .error }) {
                    failures += 1
                    let more = found.count > 1 ? " (and \(found.count - 1) more in this file)" : ""
                    cases += "      <failure type=\"\(escape(rule))\" message=\"\(escape(error.message + more))\">\(escape(text))</failure>\n"
                } else {
                    cases += "      <system-out>\(escape(text))</system-out>\n"
                }
                cases += "    </testcase>\n"
            }
            totalTests += rules.count
            totalFailures += failures
            suites += "  <testsuite name=\"\(escape(file))\" tests=\"\(rules.count)\" failures=\"\(failures)\" errors=\"0\">\n\(cases)  </testsuite>\n"
        }
        if byFile.isEmpty {
            // No findings: one passing case, so a viewer shows the audit ran.
            totalTests = 1
            suites = "  <testsuite name=\"\(escape(options.title))\" tests=\"1\" failures=\"0\" errors=\"0\">\n    <testcase name=\"\(escape(report.summary))\" classname=\"\(escape(options.title))\"/>\n  </testsuite>\n"
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="\(escape(options.title))" tests="\(totalTests)" failures="\(totalFailures)" errors="0">
        \(suites)</testsuites>

        """
    }

    /// XML 1.0 text: markup characters escaped, characters XML cannot carry replaced.
    static func escape(_ text: String) -> String {
        // Most texts (a trace line's URL, a reason) need nothing: handed back whole, not
        // copied a character at a time (a JUnit report of 200,000 requests spent a sixth of
        // its time here). 0xEF leads U+FFFE and U+FFFF.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0xEF }) {
            return text
        }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    output += "\u{FFFD}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }
}
