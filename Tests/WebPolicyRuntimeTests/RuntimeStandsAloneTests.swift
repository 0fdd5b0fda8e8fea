import Foundation
import Testing

/// The runtime is what an app links: it may import Foundation (and what Foundation is made of)
/// and URLFilter, nothing from the tooling — no Yams, no ArgumentParser, no WebPolicyKit.
@Suite("Runtime stands alone")
struct RuntimeStandsAloneTests {
    static let allowed: Set<String> = ["Foundation", "URLFilter", "Dispatch", "Glibc", "Darwin"]

    @Test func runtimeSourcesImportOnlyFoundationAndURLFilter() throws {
        let base = Fixtures.url("Sources/WebPolicyRuntime").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: base).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOfFile: base + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") && line.hasPrefix("@") {
                let module = String(line.split(separator: " ").last ?? "")
                #expect(Self.allowed.contains(module), "\(file) imports \(module)")
            }
        }
    }

    @Test func thePackageGivesTheRuntimeNoOtherDependency() throws {
        let manifest = try String(contentsOf: Fixtures.url("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: "name: \"WebPolicyRuntime\",\n"))
        let declaration = manifest[start.upperBound...].prefix { $0 != ")" }
        #expect(declaration.contains("dependencies: [\"URLFilter\"]"), "\(declaration)")
        #expect(manifest.contains(".iOS(.v15)"))
    }
}
