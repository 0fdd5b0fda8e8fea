import Foundation
import Testing
@testable import WebPolicyKit

/// The schema the binary carries (for `init` and `webpolicy schema`) is the repository's.
@Suite("The schema the binary carries")
struct PolicySchemaTests {
    @Test func itIsSchemasWebpolicySchemaJSON() throws {
        let file = try #require(Repository.read("schemas/webpolicy.schema.json"))
        if Repository.isRecording, file != PolicySchema.text { try Self.writeSwiftCopy(of: file) }
        #expect(PolicySchema.text == file, "Sources/WebPolicyKit/Scaffold/PolicySchema.swift is stale: run the tests with WEBPOLICY_RECORD=1")
    }

    /// Writes `Sources/WebPolicyKit/Scaffold/PolicySchema.swift` from the schema's text (also
    /// called by the test that writes the schema's webview entries, so one recorded run does both).
    static func writeSwiftCopy(of file: String) throws {
        let swift = """
            // Generated from schemas/webpolicy.schema.json (PolicySchemaTests keeps it so: record with
            // WEBPOLICY_RECORD=1). The binary carries it for `webpolicy init` and `webpolicy schema`, which
            // give a team's repository the schema its editor completes policies with, and for `webpolicy lsp`'s
            // completion and key hover.
            public enum PolicySchema {
                public static let text = ##\"\"\"
            \(file)
            \"\"\"##
            }

            """
        try swift.write(toFile: Repository.path("Sources/WebPolicyKit/Scaffold/PolicySchema.swift"), atomically: true, encoding: .utf8)
    }
}
