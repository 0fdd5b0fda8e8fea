import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `simulate --coverage`: what no request exercised, with locations and a percentage; the
/// JSON and JUnit outputs carry it; `--coverage-min` fails below a floor.
@Suite("simulate --coverage (the binary)")
struct CoverageCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/coverage")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func unexercisedEntriesAreListedWithTheirLocations() throws {
        let result = try CommandRunner.run(["simulate", "shop.trace", "--coverage"], in: Self.fixtures)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("coverage.out"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func coverageMinFailsBelowTheFloorOnly() throws {
        let below = try CommandRunner.run(["simulate", "shop.trace", "--coverage-min", "50"], in: Self.fixtures)
        #expect(below.status == 1)
        #expect(below.stderr == "webpolicy: coverage of shop.yaml is 44.4%, below --coverage-min 50\n")
        let above = try CommandRunner.run(["simulate", "shop.trace", "--coverage-min", "40"], in: Self.fixtures)
        #expect(above.status == 0)
        let invalid = try CommandRunner.run(["simulate", "shop.trace", "--coverage-min", "120"], in: Self.fixtures)
        #expect(invalid.status == 2)
    }

    @Test func jsonAndJUnitCarryIt() throws {
        let json = try CommandRunner.run(["simulate", "shop.trace", "--coverage", "--format", "json"], in: Self.fixtures)
        let lines = json.stdout.split(separator: "\n")
        let coverage = try #require(lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first { $0["coverage"] != nil })
        #expect(coverage["percent"] as? String == "44.4")
        #expect((coverage["unexercised"] as? [[String: Any]])?.count == 5)
        let junit = try CommandRunner.run(["simulate", "shop.trace", "--coverage", "--format", "junit"], in: Self.fixtures)
        let document = try XMLDocument(xmlString: junit.stdout)
        #expect(try document.nodes(forXPath: "//testsuite[starts-with(@name, 'coverage of')]/testcase").count == 5)
        #expect(try document.nodes(forXPath: "/testsuites/@failures").first?.stringValue == "5")
    }

    @Test func theExamplePoliciesAreFullyCovered() throws {
        let result = try CommandRunner.run(["simulate", "policies", "--coverage-min", "100"], in: Self.repository)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "100.0% of").count - 1 == 6, "\(result.stdout)")
    }

    @Test func bareListsHaveNoCoverage() throws {
        let result = try CommandRunner.run(["simulate", "shop.trace", "--coverage", "--content-rules", "x.json"], in: Self.fixtures)
        #expect(result.status == 2)
    }
}
