import Foundation
import Testing

/// `runtime-hosts` in simulate and explain (the binary): bind lines, `--bind`, the example
/// policy's trace replayed with every line's reason, and the mistakes a user makes with them.
@Suite("simulate and explain with hosts named by role (the binary)")
struct RoleSimulateTests {
    static let policy = """
    webpolicy: 1
    name: dashboard
    runtime-hosts:
      server:
        schemes: [https, http]
        http: local-network
    navigation:
      pages:
        - host: "${server}"
    bridges:
      - name: externalBus
        origins: ["${server}"]

    """

    @Test func theExampleTraceIsReplayedWithItsReasons() throws {
        let root = CommandRunner.repositoryRoot.appendingPathComponent("policies")
        let result = try CommandRunner.run(["simulate", "--verbose", "self-hosted-dashboard.trace"], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for reason in ["runtime-hosts binds ${server} to https://ha.example.com", "'${server}' (bound to http://homeassistant.local:8123)",
                       "plain http to homeassistant.local, bound to ${server}, which allows plain http on the local network",
                       "runtime-hosts refuses to bind ${server} to http://dash.example.net", "not on the local network"] {
            #expect(result.stdout.contains(reason), "no line says '\(reason)':\n\(result.stdout)")
        }
    }

    @Test func bindOnTheCommandLineComesBeforeTheFirstLine() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        let trace = "page http://homeassistant.local:8123/ by=app expect=allow\nmessage http://homeassistant.local:8123/ handler=externalBus expect=allow\n"
        let bound = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml", "--bind", "server=http://homeassistant.local:8123"], in: folder, stdin: trace)
        #expect(bound.status == 0, "\(bound.stdout)\(bound.stderr)")
        let unbound = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: trace)
        #expect(unbound.status == 1, "\(unbound.stdout)")
        let refused = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml", "--bind", "server=http://dash.example.net"], in: folder, stdin: trace)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--bind server=http://dash.example.net/: p.yaml refuses it"), "\(refused.stderr)")
        let malformed = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml", "--bind", "server"], in: folder, stdin: trace)
        #expect(malformed.status == 64 || malformed.status == 2, "\(malformed.status)")
        #expect(malformed.stderr.contains("--bind"), "\(malformed.stderr)")
    }

    @Test func aBindLineExpectsItsBindingUnlessItSaysBlock() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        let typo = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: "bind sever=https://ha.example.com\n")
        #expect(typo.status == 1)
        #expect(typo.stdout.contains("<stdin>:1: FAIL block     bind ${sever}=https://ha.example.com/"), "\(typo.stdout)")
        #expect(typo.stdout.contains("no role is named 'sever'"), "\(typo.stdout)")
        let said = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: "bind server=http://dash.example.net expect=block\n")
        #expect(said.status == 0, "\(said.stdout)")
        let broken = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: "page https://a.example/\nbind server\nbind server=https://[::1 expect=allow\nbind server=https://a.example expect=upgrade\n")
        #expect(broken.status == 2)
        for problem in ["<stdin>:2:1: error: a bind line names a role and its server", "<stdin>:3:21: error: the URL 'https://[::1' does not parse",
                        "<stdin>:4:38: error: a binding is accepted (allow) or refused (block), not 'upgrade'"] {
            #expect(broken.stderr.contains(problem) || broken.stdout.contains(problem), "no '\(problem)' in \(broken.stderr)\(broken.stdout)")
        }
    }

    /// What a newcomer missed: a refusal says when a role it names is unbound, and an origin
    /// keeps its port, which a role compares.
    @Test func reasonsNameUnboundRolesAndPorts() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        let result = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml", "--verbose"], in: folder,
                                           stdin: "page https://ha.example.com/ by=app\nmessage https://ha.example.com/ handler=externalBus\nbind server=http://192.168.1.50:8080\nmessage http://192.168.1.50:9999/x handler=externalBus\n")
        #expect(result.stdout.contains("outside navigation.pages (p.yaml:8) — ${server} is unbound"), "\(result.stdout)")
        #expect(result.stdout.contains("does not admit the origin https://ha.example.com (p.yaml:12) — ${server} is unbound"), "\(result.stdout)")
        #expect(result.stdout.contains("does not admit the origin http://192.168.1.50:9999 (p.yaml:12)\n"), "\(result.stdout)")
        let braces = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml"], in: folder, stdin: "bind ${server}=https://a.example\n")
        #expect(braces.status == 2 && braces.stderr.contains("a bind line names the role without ${}: server="), "\(braces.stderr)")
        let noScheme = try CommandRunner.run(["simulate", "-", "--policy", "p.yaml", "--bind", "server=cloud.example.com"], in: folder, stdin: "")
        #expect(noScheme.stderr.contains("the URL 'cloud.example.com' does not parse"), "\(noScheme.stderr)")
        let unbound = try CommandRunner.run(["explain", "--policy", "p.yaml", "--type", "page", "https://ha.example.com/"], in: folder)
        #expect(unbound.stdout.contains("with ${server} unbound (p.yaml:4): its entries admit nothing; --bind server=URL binds it"), "\(unbound.stdout)")
    }

    @Test func explainNamesTheBinding() throws {
        let folder = try CommandRunner.makeFolder(["p.yaml": Self.policy])
        let page = try CommandRunner.run(["explain", "--policy", "p.yaml", "--type", "page", "--bind", "server=http://homeassistant.local:8123",
                                          "http://homeassistant.local:8123/lovelace"], in: folder)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("with ${server} bound to http://homeassistant.local:8123 (p.yaml:4)"), "\(page.stdout)")
        #expect(page.stdout.contains("'${server}' (bound to http://homeassistant.local:8123)"), "\(page.stdout)")
        let message = try CommandRunner.run(["explain", "--policy", "p.yaml", "--type", "message", "--handler", "externalBus",
                                             "http://homeassistant.local:8123/"], in: folder)
        #expect(message.stdout.contains("does not admit the origin http://homeassistant.local"), "\(message.stdout)")
    }
}
