import Foundation
import Testing

@Suite("webpolicy compile (the binary)")
struct CompileCommandTests {
    static let policy = """
    webpolicy: 1
    name: Shop App
    target: { ios: "16.0" }
    http-allowlist:
      - host: cms.example.com
        reason: CMS preview server without TLS
    scheme-allowlist:
      - scheme: mailto
    content-rules:
      - action: block
        hosts: [ads.example.net, "*.ads.example.net"]
      - action: make-https
        url-filter: '^http://'

    """

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test func writesTheArtefactsNamedAfterThePolicy() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        let result = try CommandRunner.run(["compile", "p.yaml", "--output", "out"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let written = try Self.files(in: folder.appendingPathComponent("out"))
        #expect(written.keys.sorted() == ["shop-app.ats.plist", "shop-app.content-rules.engine", "shop-app.content-rules.json", "shop-app.manifest.json"])
        #expect(result.stdout == ["shop-app.content-rules.json", "shop-app.content-rules.engine", "shop-app.ats.plist", "shop-app.manifest.json"].map { "wrote out/\($0)\n" }.joined())
        let list = String(decoding: written["shop-app.content-rules.json"]!, as: UTF8.self)
        #expect(list.contains(#""url-filter": "^[^:]+://+([^:/]+\\.)?ads\\.example\\.net[:/]""#))
    }

    @Test func compilingTwiceIsByteIdentical() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        #expect(try CommandRunner.run(["compile", "p.yaml", "-o", "one"], in: folder).status == 0)
        #expect(try CommandRunner.run(["compile", "p.yaml", "-o", "two"], in: folder).status == 0)
        #expect(try Self.files(in: folder.appendingPathComponent("one")) == Self.files(in: folder.appendingPathComponent("two")))
    }

    @Test func lintErrorsWriteNothingAndExitOne() throws {
        let broken = Self.policy.replacingOccurrences(of: "url-filter: '^http://'", with: "url-filter: 'a|b'")
        let folder = try CommandRunner.makeFolder(["p.yaml": broken])
        let result = try CommandRunner.run(["compile", "p.yaml", "-o", "out"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("p.yaml:13:19: error:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func dashPrintsTheContentBlockerListOnStandardOutput() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        let printed = try CommandRunner.run(["compile", "p.yaml", "--output", "-"], in: folder)
        #expect(printed.status == 0)
        #expect(try CommandRunner.run(["compile", "p.yaml", "-o", "out"], in: folder).status == 0)
        let file = try String(contentsOf: folder.appendingPathComponent("out/shop-app.content-rules.json"), encoding: .utf8)
        #expect(printed.stdout == file)
    }

    @Test func inputErrorsExitTwo() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy, "sub/x.yaml": Self.policy])
        #expect(try CommandRunner.run(["compile", "missing.yaml", "-o", "out"], in: folder).status == 2)
        #expect(try CommandRunner.run(["compile", "sub", "-o", "out"], in: folder).status == 2)
        #expect(try CommandRunner.run(["compile", "p.yaml"], in: folder).status == 2)  // --output is required
        try "a file".write(to: folder.appendingPathComponent("taken"), atomically: true, encoding: .utf8)
        let notAFolder = try CommandRunner.run(["compile", "p.yaml", "-o", "taken"], in: folder)
        #expect(notAFolder.status == 2)
        #expect(notAFolder.stderr.hasPrefix("webpolicy: error: "))
    }

    @Test func aPolicyWithoutContentRulesHasNoListToPrint() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: only-schemes\nscheme-allowlist:\n  - scheme: mailto\n"])
        let printed = try CommandRunner.run(["compile", "p.yaml", "-o", "-"], in: folder)
        #expect(printed.status == 2)
        #expect(printed.stderr.contains("no content rules"))
        let written = try CommandRunner.run(["compile", "p.yaml", "-o", "out"], in: folder)
        #expect(written.status == 0)
        #expect(try Self.files(in: folder.appendingPathComponent("out")).keys.sorted() == ["only-schemes.ats.plist", "only-schemes.manifest.json"])
    }
}
