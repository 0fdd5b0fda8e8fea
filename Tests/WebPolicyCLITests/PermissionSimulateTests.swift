import Foundation
import Testing

/// `webview.permissions` in simulate: the fixture of `Tests/Fixtures/simulate/permissions`
/// replayed with `--verbose` against its golden, coverage of the capabilities, and the
/// `permission` line's mistakes at their columns.
@Suite("simulate of permission requests (the binary)")
struct PermissionSimulateTests {
    static let folder = CommandRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/simulate/permissions")

    @Test func verboseOutputMatchesTheGolden() throws {
        let result = try CommandRunner.run(["simulate", "--verbose", "Permissions.trace"], in: Self.folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let golden = try String(contentsOf: Self.folder.appendingPathComponent("Permissions.out"), encoding: .utf8)
        #expect(result.stdout == golden)
        for reason in ["WebKit asks the user", "is deny", "does not list the origin", "only a secure context (https) may ask", "is unbound"] {
            #expect(golden.contains(reason), "no golden shows '\(reason)'")
        }
    }

    @Test func coverageListsTheCapabilitiesNoRequestDecided() throws {
        let policy = """
        webpolicy: 1
        name: c
        target: { ios: "15.0" }
        webview:
          permissions:
            camera: [meet.example.com]
            device-motion: deny

        """
        let folder = try CommandRunner.makeFolder(["c.yaml": policy])
        let result = try CommandRunner.run(["simulate", "-", "--policy", "c.yaml", "--coverage"], in: folder,
                                           stdin: "permission camera https://meet.example.com/\n")
        #expect(result.stdout.contains("coverage of c.yaml: 50.0% of 2"), "\(result.stdout)")
        #expect(result.stdout.contains("  not exercised: webview permission device-motion (c.yaml:7)\n"), "\(result.stdout)")
    }

    @Test func aPermissionLinesMistakesAreReportedAtTheirColumns() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\n"])
        let bad = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder,
                                        stdin: "permission camra https://a.example.com/\npermission camera\npermission camera https://a.example.com/ expect=upgrade\npermission camera https://a.example.com/ world=page\n")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("<stdin>:1:12: error: 'camra' is not a permission: camera, microphone, device-motion (did you mean 'camera'?)"), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:2:1: error: a permission line names what the page asks for and the URL of the frame that asks"), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:3:49: error: a permission is asked (allow) or refused without asking (block), not 'upgrade'"), "\(bad.stderr)")
        #expect(bad.stderr.contains("<stdin>:4:42: error: a permission line says KIND URL, and at most frame= and expect="), "\(bad.stderr)")
    }

    /// Without `permissions`, WebKit's own answer: it asks the user.
    @Test func aPolicyThatSaysNothingLeavesTheQuestionToTheUser() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": "webpolicy: 1\nname: p\n"])
        let result = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml", "--verbose"], in: folder, stdin: "permission camera https://a.example.com/ expect=allow\n")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("webview.permissions does not name camera: WebKit asks the user, its default"), "\(result.stdout)")
    }
}
