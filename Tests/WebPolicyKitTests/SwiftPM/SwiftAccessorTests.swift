import Foundation
import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime
import TestSupport

/// The Swift file WebPolicyBuildPlugin adds to a target must compile whatever the policy files
/// are called: names become identifiers, texts become literals.
@Suite("Generated Swift accessor")
struct SwiftAccessorTests {
    @Test(arguments: [
        ("app", "app"), ("logged-in-webapp", "loggedInWebapp"), ("Shop_App", "shopApp"), ("2fa", "_2fa"),
        ("class", "`class`"), ("all", "allPolicy"), ("é-policy", "policy"), ("--", "policy"),
    ])
    func fileNamesBecomeIdentifiers(name: String, identifier: String) {
        #expect(SwiftAccessor.identifier(name) == identifier)
    }

    @Test func textsBecomeLiterals() {
        #expect(SwiftAccessor.literal("a \"b\" \\ c\n\u{1}") == #""a \"b\" \\ c\n\u{1}""#)
    }

    @Test func theFixturePackagesAccessorIsWhatTheGoldenSays() throws {
        let policy = Repository.path("Tests/Fixtures/swiftpm/PolicyApp/Sources/PolicyApp/app.webpolicy.yaml")
        let result = try PolicyResourceBuilder().build([policy])
        #expect(!result.hasErrors)
        let swift = SwiftAccessor.render(result.built).replacingOccurrences(of: Repository.root.path + "/", with: "")
        Repository.assertGolden(swift, "Tests/Fixtures/swiftpm/expected/WebPolicies.swift")
    }

    @Test func twoNamesThatMeetStayApart() throws {
        let folder = TemporaryFolder.location("webpolicy-accessor")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a-b.webpolicy.yaml", "aB.webpolicy.yaml"] {
            try "webpolicy: 1\nname: \(name.prefix(3))\n".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let result = try PolicyResourceBuilder().build(["a-b.webpolicy.yaml", "aB.webpolicy.yaml"].map { folder.appendingPathComponent($0).path })
        let swift = SwiftAccessor.render(result.built)
        #expect(swift.contains("static let aB = "))
        #expect(swift.contains("static let aB2 = "))
    }
}
