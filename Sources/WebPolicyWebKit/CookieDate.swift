import Foundation
import WebPolicyRuntime

/// A policy's `expires` — an RFC 3339 timestamp with a zone, as lint checks it — read as a
/// date, and written as the HTTP date `document.cookie` parses (RFC 6265 §5.1.1 reads
/// `Fri, 31 Dec 2027 23:59:59 GMT`; an RFC 3339 text would fail its cookie-date algorithm and
/// leave a session cookie). Calendar arithmetic by hand: no formatter, no locale, the same
/// result on every platform.
public enum CookieDate {
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ bytes[$0] >= 48 && bytes[$0] <= 57 }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 48) }
        }
        guard bytes.count >= 20, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            if index == start { return nil }
        }
        var offset = 0
        let zone = Array(bytes[index...])
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] {
            offset = 0
        } else {
            guard zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), zone[3] == UInt8(ascii: ":"),
                  let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6) else { return nil }
            offset = (hours * 60 + minutes) * 60 * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// RFC 7231's IMF-fixdate, always in GMT: `Fri, 31 Dec 2027 23:59:59 GMT`.
    public static func httpDate(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(secondsOfDay / 3_600)):\(two(secondsOfDay % 3_600 / 60)):\(two(secondsOfDay % 60)) GMT"
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse (`civil_from_days`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// What `HTTPCookie(properties:)` is given for a cookie, decided here — in plain Swift, tested
/// on Linux — so the WebKit adapter only maps each attribute to its key.
public struct HTTPCookieAttributes: Sendable, Equatable {
    public var name: String
    public var value: String
    public var path: String
    /// With a leading dot for a domain cookie: NSHTTPCookie's spelling of "and subdomains".
    public var domain: String
    public var secure: Bool
    public var httpOnly: Bool
    public var sameSite: SameSite?
    /// `max-age` in seconds, as the `maximumAge` property's string.
    public var maximumAge: String?
    /// When the cookie expires: `expires` from the policy, or — for `max-age`, which
    /// NSHTTPCookie documents for version 1 cookies only — now plus the age, so the store
    /// keeps the cookie as long as the policy says on either reading. nil: a session cookie.
    public var expires: Date?

    /// RFC 6265 §5.3 step 3: Max-Age wins over Expires.
    public init(_ cookie: CookieToInstall, now: Date) {
        name = cookie.name
        value = cookie.value
        path = cookie.path
        domain = cookie.hostOnly ? cookie.domain : "." + cookie.domain.drop { $0 == "." }
        secure = cookie.secure
        httpOnly = cookie.httpOnly
        sameSite = cookie.sameSite
        if let maxAge = cookie.maxAge {
            maximumAge = String(maxAge)
            expires = now.addingTimeInterval(TimeInterval(maxAge))
        } else {
            expires = cookie.expires.flatMap(CookieDate.parse)
        }
    }
}
