import Testing
import WebPolicyRuntime

/// One pattern, one meaning: `host`, `*.host`, `host` with `include-subdomains`, as the engine,
/// the compiler, lint and the audit all read it.
@Suite struct HostScopeTests {
    @Test func aPatternNamesItsHosts() {
        let exact = HostScope(pattern: "Shop.Example.com")
        #expect(exact.host == "shop.example.com" && exact.kind == .exact && exact.includesHost && !exact.includesSubdomains)
        #expect(exact.matches("shop.example.com") && exact.matches("SHOP.example.com") && !exact.matches("a.shop.example.com"))
        let subdomains = HostScope(pattern: "*.example.com")
        #expect(subdomains.host == "example.com" && !subdomains.includesHost && subdomains.includesSubdomains)
        #expect(subdomains.matches("a.example.com") && subdomains.matches("a.b.example.com") && !subdomains.matches("example.com"))
        #expect(!subdomains.matches("notexample.com"))
        let both = HostScope(pattern: "example.com", includeSubdomains: true)
        #expect(both.kind == .domainAndSubdomains && both.matches("example.com") && both.matches("a.example.com"))
        // `include-subdomains` on a `*.` pattern changes nothing: the apex stays out.
        #expect(HostScope(pattern: "*.example.com", includeSubdomains: true) == subdomains)
        #expect(subdomains.sampleHost == "www.example.com" && exact.sampleHost == "shop.example.com")
    }

    @Test func coversIsEveryHostOfTheOther() {
        let both = HostScope(pattern: "example.com", includeSubdomains: true)
        let subdomains = HostScope(pattern: "*.example.com")
        let exact = HostScope(pattern: "example.com")
        #expect(both.covers(subdomains) && both.covers(exact) && both.covers(HostScope(pattern: "*.a.example.com")))
        #expect(!subdomains.covers(exact) && !subdomains.covers(both))
        #expect(subdomains.covers(HostScope(pattern: "a.example.com")) && subdomains.covers(HostScope(pattern: "a.example.com", includeSubdomains: true)))
        #expect(!exact.covers(subdomains) && exact.covers(exact))
        #expect(!both.covers(HostScope(pattern: "example.org")))
    }

    @Test func intersectsIsSomeHostOfBoth() {
        let exact = HostScope(pattern: "example.com")
        let subdomains = HostScope(pattern: "*.example.com")
        // `x` and `*.x` share no host.
        #expect(!exact.intersects(subdomains) && !subdomains.intersects(exact))
        #expect(subdomains.intersects(HostScope(pattern: "a.example.com")) && HostScope(pattern: "a.example.com").intersects(subdomains))
        #expect(subdomains.intersects(HostScope(pattern: "*.a.example.com")) && HostScope(pattern: "*.a.example.com").intersects(subdomains))
        #expect(HostScope(pattern: "example.com", includeSubdomains: true).intersects(exact))
        #expect(!HostScope(pattern: "*.a.example.com").intersects(HostScope(pattern: "b.example.com")))
        // True exactly when some host matches both (or every host of one matches the other), over
        // a universe with a host below every pattern.
        let patterns = ["example.com", "*.example.com", "a.example.com", "*.a.example.com", "b.example.com", "example.org"]
        let scopes = patterns.map { HostScope(pattern: $0) } + patterns.filter { !$0.hasPrefix("*") }.map { HostScope(pattern: $0, includeSubdomains: true) }
        let hosts = ["example.com", "a.example.com", "x.a.example.com", "b.example.com", "z.b.example.com", "c.example.com", "example.org", "y.example.org"]
        for left in scopes {
            for right in scopes {
                let shared = hosts.contains { left.matches($0) && right.matches($0) }
                #expect(left.intersects(right) == shared, "\(left) ∩ \(right)")
                let covered = hosts.allSatisfy { !right.matches($0) || left.matches($0) }
                #expect(left.covers(right) == covered, "\(left) ⊇ \(right)")
            }
        }
    }
}
