import Foundation
import Testing
import WebPolicyRuntime

@Suite("Manifest")
struct ManifestTests {
    static var manifests: [URL] {
        let base = Fixtures.url("Tests/Fixtures/runtime")
        return ((try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []).sorted().compactMap { name in
            let folder = base.appendingPathComponent(name + "/compiled")
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).first { $0.hasSuffix(".manifest.json") }.map(folder.appendingPathComponent)
        }
    }

    /// What compile writes decodes to a value that writes the same bytes again: nothing is
    /// lost between the file and the engine.
    @Test func everyCompiledManifestRoundTrips() throws {
        #expect(Self.manifests.count >= 5)
        for url in Self.manifests {
            let text = try String(contentsOf: url, encoding: .utf8)
            let manifest = try Manifest.decode(text).get()
            #expect(manifest.serialized() == text, "\(url.lastPathComponent)")
        }
    }

    @Test func hostMatchesAreExactSubdomainsOrBoth() {
        let exact = Manifest.HostMatch(pattern: "Example.com")
        let subdomains = Manifest.HostMatch(pattern: "*.example.com")
        let both = Manifest.HostMatch(pattern: "example.com", includeSubdomains: true)
        #expect(exact.matches("example.com") && exact.matches("EXAMPLE.com") && !exact.matches("a.example.com"))
        #expect(!subdomains.matches("example.com") && subdomains.matches("a.b.example.com") && !subdomains.matches("badexample.com"))
        #expect(both.matches("example.com") && both.matches("a.example.com") && !both.matches("badexample.com"))
    }

    @Test func locationsKeepColonsInTheFileName() throws {
        let text = #"{"webpolicyManifest": 1, "policy": {"name": "x"}, "target": {"ios": "16.0", "distribution": "app-store"}, "httpAllowlist": [{"host": "a", "match": "exact", "location": "c:/x.yaml:3:5"}]}"#
        let manifest = try Manifest.decode(text).get()
        #expect(manifest.httpAllowlist.first?.location == SourceLocation(path: "c:/x.yaml", range: SourceRange(at: SourcePosition(line: 3, column: 5))))
        #expect(manifest.cookies.isEmpty && manifest.contentRuleLists.isEmpty)
    }

    @Test(arguments: [
        (#"[]"#, "the manifest is an array, not an object"),
        (#"{}"#, "this is not a webpolicy manifest"),
        (#"{"webpolicyManifest": "1"}"#, "\"webpolicyManifest\" must be a whole number"),
        (#"{"webpolicyManifest": 0}"#, "must be 1 or more"),
        (#"{"webpolicyManifest": 1, "policy": {"name": "x"}, "target": {"ios": "16.0", "distribution": "app-store"}, "cookies": [{"name": "a", "value": "b", "domain": "c", "via": "carrier-pigeon"}]}"#, "\"via\" must be one of"),
        (#"{"webpolicyManifest": 1, "policy": {"name": "x"}, "target": {"ios": "16.0", "distribution": "app-store"}, "httpAllowlist": [{"host": "a", "location": "nowhere"}]}"#, "\"location\" must be FILE:LINE:COLUMN"),
    ])
    func malformedManifestsSayWhy(text: String, message: String) {
        guard case .failure(let error) = Manifest.decode(text) else { Issue.record("accepted \(text)"); return }
        #expect(error.message.contains(message), "\(error.message)")
    }
}

/// The documents say the version compile writes and the runtime reads: they drifted once (the
/// docs said 1 while compile wrote 3).
@Suite("Manifest version in the docs")
struct ManifestVersionDocumentationTests {
    @Test func compileAndRuntimeDocsNameTheVersionWritten() throws {
        let compile = try String(contentsOf: Fixtures.url("docs/compile.md"), encoding: .utf8)
        #expect(compile.contains("This webpolicy writes up to version \(Manifest.formatVersion)."))
        let runtime = try String(contentsOf: Fixtures.url("docs/runtime.md"), encoding: .utf8)
        let refusal = RuntimePolicyError.unsupportedManifestVersion(found: Manifest.formatVersion + 1, supported: Manifest.formatVersion).description
        #expect(runtime.contains("`\(refusal)`"), "docs/runtime.md's error table must show: \(refusal)")
    }

    @Test func theManifestTableNamesEveryTopLevelMember() throws {
        let compile = try String(contentsOf: Fixtures.url("docs/compile.md"), encoding: .utf8)
        for member in ["webpolicyManifest", "httpAllowlist", "schemeAllowlist", "cookies", "interception", "navigation", "appBoundDomains", "bridges", "webView", "runtimeHosts", "contentRuleLists"] {
            #expect(compile.contains("| `\(member)` |"), "docs/compile.md's manifest table lacks \(member)")
        }
    }
}
