import Foundation
import WebPolicyRuntime

/// WebKit's own content-blocker compiler, reached through WebKitGTK: a Python helper
/// (`WebKitCompileHelper`) runs under the system Python with GObject introspection and compiles
/// lists with `WebKit2.UserContentFilterStore` — the `WebCore/contentextensions` code Safari
/// and WKWebView run. Linux only; nothing of it is linked into webpolicy.
public enum RealWebKit {
    /// WebKit's verdict on one list: nil when it compiled, else its error message.
    public typealias Verdict = String?

    /// The Python that has `gi` and WebKit2 4.1: `$WEBPOLICY_WEBKIT_PYTHON`, else Debian's.
    static var python: String { ProcessInfo.processInfo.environment["WEBPOLICY_WEBKIT_PYTHON"] ?? "/usr/bin/python3" }

    public static let installHint = """
        webpolicy verify needs WebKitGTK 4.1 and PyGObject under the system Python: \
        on Debian or Ubuntu, apt-get install gir1.2-webkit2-4.1 python3-gi \
        (set WEBPOLICY_WEBKIT_PYTHON to use another Python). On a Mac, WebKit itself compiles \
        the lists when the app loads them.
        """

    /// Why WebKit cannot be reached, or nil when it can.
    public static func unavailability() -> String? {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "there is no \(python)" }
        let (status, _, _) = Subprocess.run(python, ["-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"], input: Data())
        return status == 0 ? nil : "\(python) cannot load WebKit2 4.1 through gi"
    }

    /// Compiles each list with WebKit, in one WebKit process; verdicts in input order.
    public static func compile(_ lists: [String]) throws(InputError) -> [Verdict] {
        let requests = JSONValue.array(lists.enumerated().map { index, text in .object([("id", .int(index)), ("json", .string(text))]) })
        let (status, output, errors) = Subprocess.run(python, ["-c", WebKitCompileHelper.script], input: Data(requests.serialized(pretty: false).utf8))
        guard status == 0, let results = try? JSONSerialization.jsonObject(with: output) as? [[String: Any]], results.count == lists.count else {
            throw InputError("WebKit could not compile the lists: \(String(decoding: errors.suffix(2000), as: UTF8.self))")
        }
        var verdicts = [Verdict](repeating: nil, count: lists.count)
        for result in results {
            guard let id = result["id"] as? Int, id < lists.count else { continue }
            verdicts[id] = (result["ok"] as? Bool ?? false) ? nil : (result["error"] as? String ?? "refused")
        }
        return verdicts
    }
}
