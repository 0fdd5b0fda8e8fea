import WebPolicyRuntime

/// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), for GitHub code scanning and
/// other SARIF viewers. Columns are Unicode code points (`columnKind`), as webpolicy counts them.
public enum SARIFReporter: Reporter {
    public static let identifier = "sarif"

    public static func render(_ report: LintReport, options: ReporterOptions) -> String {
        let rules = options.rules.map { DriverRule(id: $0.id, name: $0.name, summary: $0.summary, severity: $0.defaultSeverity, category: $0.category.rawValue, standards: $0.standards) }
            + LoaderCheck.allCases.map { DriverRule(id: $0.id, name: $0.id, summary: $0.summary, severity: .error, category: "loader", standards: .none) }
        let ruleIndex = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

        let results: [JSONValue] = report.diagnostics.map { diagnostic in
            var message = diagnostic.message
            if let hint = diagnostic.hint, hint != diagnostic.fix?.description { message += "\nhint: \(hint)" }
            var result: [(String, JSONValue)] = [("ruleId", .string(diagnostic.ruleID))]
            if let index = ruleIndex[diagnostic.ruleID] { result.append(("ruleIndex", .int(index))) }
            result += [
                ("level", .string(level(diagnostic.severity))),
                ("message", .object([("text", .string(message))])),
                ("locations", .array([.object([("physicalLocation", physicalLocation(diagnostic.location))])])),
            ]
            let related = diagnostic.notes.enumerated().compactMap { index, note -> JSONValue? in
                guard let location = note.location else { return nil }
                return .object([
                    ("id", .int(index + 1)),
                    ("physicalLocation", physicalLocation(location)),
                    ("message", .object([("text", .string(note.message))])),
                ])
            }
            if !related.isEmpty { result.append(("relatedLocations", .array(related))) }
            if let fix = diagnostic.fix {
                let replacements: [JSONValue] = fix.edits.map { edit in
                    .object([
                        ("deletedRegion", region(edit.range)),
                        ("insertedContent", .object([("text", .string(edit.replacement))])),
                    ])
                }
                result.append(("fixes", .array([.object([
                    ("description", .object([("text", .string(fix.description))])),
                    ("artifactChanges", .array([.object([
                        ("artifactLocation", .object([("uri", .string(uri(diagnostic.location.path)))])),
                        ("replacements", .array(replacements)),
                    ])])),
                ])])))
            }
            let unplaced = diagnostic.notes.filter { $0.location == nil }.map(\.message)
            if !unplaced.isEmpty { result.append(("properties", .object([("notes", .array(unplaced.map(JSONValue.string)))]))) }
            return .object(result)
        }

        let driverRules: [JSONValue] = rules.map { rule in
            // GitHub code scanning files a rule tagged "security" under security alerts, and
            // shows the tags (MASVS, MASWE, MASTG, CWE) and the help link on every alert.
            let tags = [rule.category] + (rule.standards.isEmpty ? [] : ["security"]) + rule.standards.identifiers
            var properties: [(String, JSONValue)] = [("tags", .array(tags.map(JSONValue.string)))]
            // Code scanning ranks security alerts by this (critical, high, medium, low).
            if let score = rule.standards.securitySeverity(for: rule.severity) {
                properties.append(("security-severity", .string(score)))
                properties.append(("precision", .string(rule.severity == .info ? "medium" : "high")))
            }
            return .object([
                ("id", .string(rule.id)),
                ("name", .string(rule.name)),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("helpUri", .string(WebPolicyVersion.documentation(ofRule: rule.category == "loader" ? "loader-checks" : rule.id))),
                ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
                ("properties", .object(properties)),
            ])
        }

        return JSONValue.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string("webpolicy")),
                    ("version", .string(options.toolVersion)),
                    ("rules", .array(driverRules)),
                ]))])),
                ("columnKind", .string("unicodeCodePoints")),
                ("results", .array(results)),
            ])])),
        ]).serialized()
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    static func physicalLocation(_ location: SourceLocation) -> JSONValue {
        .object([
            ("artifactLocation", .object([("uri", .string(uri(location.path)))])),
            ("region", region(location.range)),
        ])
    }

    /// An empty range (an insertion) is a region whose end is its start.
    static func region(_ range: SourceRange) -> JSONValue {
        .object([
            ("startLine", .int(range.start.line)),
            ("startColumn", .int(range.start.column)),
            ("endLine", .int(range.end.line)),
            ("endColumn", .int(range.end.column)),
        ])
    }

    /// A relative URI reference for a path: unreserved characters and `/` stay, the rest is
    /// percent-encoded (RFC 3986 §2).
    static func uri(_ path: String) -> String {
        var output = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "-._~/".unicodeScalars.contains(scalar) {
                output.unicodeScalars.append(scalar)
            } else {
                output += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return output
    }

    /// A rule as SARIF's `tool.driver.rules` describes it.
    private struct DriverRule {
        var id, name, summary: String
        var severity: Severity
        var category: String
        var standards: Standards
    }
}
