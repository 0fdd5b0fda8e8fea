import Foundation

/// WebKit's own compile of a content-blocker list, through the WebKitGTK helper that
/// `webpolicy verify` runs (`WebKitCompileHelper.script`, passed in: this target links no
/// WebPolicyKit): the baseline for webpolicy's compile and for the runtime's start-up.
public enum WebKitCompile {
    /// The measurement and whether WebKit compiled the list, or why it cannot be measured here.
    public static func measure(list: Data, scratch: URL, helperScript: String) -> Result<(CommandTimer.Measurement, compiled: Bool), BenchFailure> {
        let python = ProcessInfo.processInfo.environment["WEBPOLICY_WEBKIT_PYTHON"] ?? "/usr/bin/python3"
        let probe = try? CommandTimer.run(python, ["-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"]).0
        guard probe?.status == 0 else {
            return .failure(BenchFailure("WebKitGTK is not installed (apt-get install gir1.2-webkit2-4.1 python3-gi)"))
        }
        do {
            let request = scratch.appendingPathComponent("webkit-request.json")
            var body = Data(#"[{"id": "list", "json": "#.utf8)
            body += try JSONSerialization.data(withJSONObject: [String(decoding: list, as: UTF8.self)]).dropFirst().dropLast()
            body += Data("}]".utf8)
            try body.write(to: request)
            let (run, _) = try CommandTimer.run(python, ["-c", helperScript], stdin: request.path)
            return .success((run, String(decoding: run.output, as: UTF8.self).contains("\"ok\": true")))
        } catch {
            return .failure(BenchFailure("\(error)"))
        }
    }
}

public struct BenchFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
