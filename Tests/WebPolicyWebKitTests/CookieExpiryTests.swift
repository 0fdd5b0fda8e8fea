import Foundation
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit

/// A policy's `expires` reaches the cookie store and `document.cookie` as a date each reads
/// (it used to be dropped on the way to `WKHTTPCookieStore`, leaving a session cookie).
@Suite("Cookie expiry")
struct CookieExpiryTests {
    @Test func rfc3339TimestampsAreReadAsTheInstantTheyName() throws {
        // `date -u -d 2027-12-31T23:59:59Z +%s`
        #expect(CookieDate.parse("2027-12-31T23:59:59Z") == Date(timeIntervalSince1970: 1_830_297_599))
        #expect(CookieDate.parse("2027-12-31T23:59:59z") == Date(timeIntervalSince1970: 1_830_297_599))
        #expect(CookieDate.parse("2028-01-01T01:59:59+02:00") == Date(timeIntervalSince1970: 1_830_297_599))
        #expect(CookieDate.parse("2027-12-31T18:59:59.5-05:00") == Date(timeIntervalSince1970: 1_830_297_599.5))
        #expect(CookieDate.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(CookieDate.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        for bad in ["2027-12-31", "2027-12-31T23:59:59", "2027-13-01T00:00:00Z", "2027-12-31 23:59:59Z", "2027-12-31T23:59:59+0200", "Fri, 31 Dec 2027 23:59:59 GMT"] {
            #expect(CookieDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func httpDatesAreWhatDocumentCookieParses() {
        #expect(CookieDate.httpDate(Date(timeIntervalSince1970: 1_830_297_599)) == "Fri, 31 Dec 2027 23:59:59 GMT")
        #expect(CookieDate.httpDate(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(CookieDate.httpDate(Date(timeIntervalSince1970: 1_709_164_800)) == "Thu, 29 Feb 2024 00:00:00 GMT")
        #expect(CookieDate.httpDate(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
        // Every day of four centuries round-trips through the calendar arithmetic.
        let broken = stride(from: -146_097, through: 146_097, by: 1).filter { days in
            let (year, month, day) = CookieDate.civil(fromDays: days)
            return CookieDate.daysSinceEpoch(year: year, month: month, day: day) != days || !(1...12).contains(month) || !(1...31).contains(day)
        }
        #expect(broken.isEmpty)
    }

    static func cookie(expires: String? = nil, maxAge: Int? = nil) -> CookieToInstall {
        CookieToInstall(name: "session", value: "t0k", domain: "example.com", path: "/", hostOnly: false, secure: true, httpOnly: true,
                        sameSite: .lax, maxAge: maxAge, expires: expires, via: .cookieStore)
    }

    @Test func expiresReachesTheCookieStore() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let attributes = HTTPCookieAttributes(Self.cookie(expires: "2027-12-31T23:59:59Z"), now: now)
        #expect(attributes.expires == Date(timeIntervalSince1970: 1_830_297_599))
        #expect(attributes.maximumAge == nil)
        #expect(attributes.domain == ".example.com")
        #expect(attributes.secure && attributes.httpOnly && attributes.sameSite == .lax)
        #expect(HTTPCookieAttributes(Self.cookie(), now: now).expires == nil, "neither: a session cookie")
    }

    @Test func maxAgeWinsOverExpiresAndCountsFromNow() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let attributes = HTTPCookieAttributes(Self.cookie(expires: "2027-12-31T23:59:59Z", maxAge: 600), now: now)
        #expect(attributes.maximumAge == "600")
        #expect(attributes.expires == now.addingTimeInterval(600))
    }

    @Test func documentCookieScriptsWriteExpiresAsAnHTTPDate() throws {
        var manifest = Manifest(policyName: "cookies", targetIOS: "16.0", distribution: "app-store")
        var cookie = Manifest.Cookie(name: "locale", value: "de", domain: "example.com")
        cookie.via = .documentCookie
        cookie.expires = "2027-12-31T23:59:59Z"
        manifest.cookies = [cookie]
        let policy = try RuntimePolicy(manifest: Data(manifest.serialized().utf8), contentRuleLists: [])
        let script = try #require(try CookieInstaller(policy: policy, values: CookieValues([:])).documentCookieScript())
        #expect(script.contains("path=/; domain=example.com; expires=Fri, 31 Dec 2027 23:59:59 GMT\""))
    }
}
