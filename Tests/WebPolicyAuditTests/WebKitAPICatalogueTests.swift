import Foundation
import Testing
import WebPolicyAudit
import WebPolicyRuntime

/// The WebKit API catalogue: every spelling of every row is cited at the WebKit line that
/// declares it (`Tests/Fixtures/audit/webkit-api-citations.txt`, which
/// `ci/checks/webkit_api_catalogue.py` checks against WebKit's source), and no citation is
/// left for a spelling the catalogue dropped.
@Suite struct WebKitAPICatalogueTests {
    static let citations = AuditRulesRegistryTests.root.appendingPathComponent("Tests/Fixtures/audit/webkit-api-citations.txt")

    /// `kind spelling path`, as the citations file writes them without their line.
    static var claims: [String] {
        var claims: [String] = []
        for row in WebKitAPICatalogue.rows {
            claims += row.objectiveC.map { "objc \($0) \(row.declaredIn)" }
            claims += row.swift.map { "swift \($0.written) \(row.declaredIn)" }
        }
        // The settings of `webview:`: each property by its Objective-C and Swift names, and a
        // web-page preference's WebKit for SwiftUI twin.
        for row in WebViewSettingCatalogue.booleans {
            claims += ["property \(row.objectiveCName) \(row.declaredIn)", "swift \(row.swiftName) \(row.declaredIn)"]
        }
        for row in WebViewSettingCatalogue.choices {
            claims += ["property \(row.objectiveCName) \(row.declaredIn)", "swift \(row.swiftName) \(row.declaredIn)", "swift \(row.swiftName) \(row.pageDeclaredIn)"]
        }
        return claims
    }

    @Test func everySpellingIsCitedAtItsLineOfWebKit() throws {
        let text = try String(contentsOf: Self.citations, encoding: .utf8)
        var cited: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let fields = line.split(separator: " ")
            #expect(fields.count == 3, "\(line)")
            guard fields.count == 3, let colon = fields[2].lastIndex(of: ":"), Int(fields[2][fields[2].index(after: colon)...]) != nil else {
                Issue.record("a citation without its line: \(line) (run ci/checks/webkit_api_catalogue.py --write)")
                continue
            }
            cited.append("\(fields[0]) \(fields[1]) \(fields[2][..<colon])")
        }
        let claims = Self.claims
        #expect(Set(claims).subtracting(cited).sorted() == [], "catalogue spellings with no citation")
        #expect(Set(cited).subtracting(claims).sorted() == [], "citations of spellings the catalogue no longer has")
        #expect(Set(claims).count == claims.count, "a spelling is in the catalogue twice")
    }

    @Test func eachSpellingFindsItsRow() {
        for row in WebKitAPICatalogue.rows {
            for selector in row.objectiveC { #expect(WebKitAPICatalogue.objectiveCCall(selector)?.declaredIn == row.declaredIn, "\(selector)") }
            for spelling in row.swift where spelling.isProperty {
                #expect(WebKitAPICatalogue.swiftProperty(spelling.name) != nil, "\(spelling.name)")
            }
            for spelling in row.swift where !spelling.isProperty {
                #expect(WebKitAPICatalogue.swiftCall(spelling.name, labels: spelling.labels ?? ["_"]) != nil, "\(spelling.written)")
                #expect(WebKitAPICatalogue.isSwiftName(spelling.name))
            }
        }
        // Rows of WebKit for SwiftUI exist in Swift only, and say so by their version.
        #expect(WebKitAPICatalogue.rows.filter(\.objectiveC.isEmpty).allSatisfy { $0.since == "26.0" })
    }
}
