import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WebPolicyRuntime

/// What a scheme task can be told (`WKURLSchemeTask`); a fake in the tests.
public protocol SchemeTaskSink: AnyObject {
    func didReceive(_ response: URLResponse)
    func didReceive(_ data: Data)
    func didFinish()
    func didFailWithError(_ error: Error)
}

/// Tasks WebKit has stopped (`webView(_:stop:)`): telling one anything afterwards raises
/// "This task has already been stopped" (ios-domain.md §2, from WebKit's
/// `WebURLSchemeTask::didReceiveResponse` et al.). A handler records stops here and sends
/// through `deliver`, which drops what a stopped task can no longer take. Thread-safe:
/// serving often finishes on another queue than the stop arrives on.
public final class StoppedTasks: @unchecked Sendable {
    private var stopped = Set<ObjectIdentifier>()
    private let lock = NSLock()

    public init() {}

    public func markStopped(_ task: AnyObject) {
        lock.lock()
        stopped.insert(ObjectIdentifier(task))
        lock.unlock()
    }

    public func isStopped(_ task: AnyObject) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped.contains(ObjectIdentifier(task))
    }

    /// Forgets a finished task, so a new task at the same address is not taken for it.
    public func forget(_ task: AnyObject) {
        lock.lock()
        stopped.remove(ObjectIdentifier(task))
        lock.unlock()
    }

    /// Sends a whole response unless the task was stopped; false when it was (nothing sent).
    /// `key`: the object `markStopped` is given (the `WKURLSchemeTask`), when `task` wraps it.
    @discardableResult
    public func deliver(_ result: Result<(URLResponse, Data), Error>, to task: SchemeTaskSink, identifiedBy key: AnyObject? = nil) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        // Checked and sent under the lock: a stop cannot slip in between.
        guard !stopped.contains(ObjectIdentifier(key ?? task)) else { return false }
        switch result {
        case .success(let (response, data)):
            task.didReceive(response)
            task.didReceive(data)
            task.didFinish()
        case .failure(let error):
            task.didFailWithError(error)
        }
        return true
    }
}

/// Registration of the policy's interception rules as scheme handlers: one per custom scheme;
/// built-in and web schemes are refused with the reason (WebKit would raise
/// `NSInvalidArgumentException` and crash the app).
public struct SchemeHandlerPlan: Sendable {
    public struct Registration: Sendable, Equatable {
        public var scheme: String
        /// The interception rules of the scheme, in policy order.
        public var rules: [Manifest.Interception]
    }

    public var registrations: [Registration] = []
    /// Schemes that cannot have a handler, with why.
    public var refused: [(scheme: String, reason: String)] = []

    public init(_ manifest: Manifest) {
        var seen: [String: Int] = [:]
        for rule in manifest.interception {
            let scheme = rule.scheme
            if WebKitSchemes.web.contains(scheme) {
                if !refused.contains(where: { $0.scheme == scheme }) {
                    refused.append((scheme, "WebKit lets no app handler serve \(scheme): loads; serve the files under a custom scheme"))
                }
                continue
            }
            if !WebKitSchemes.acceptsHandler(for: scheme) {
                if !refused.contains(where: { $0.scheme == scheme }) {
                    refused.append((scheme, "WebKit handles \(scheme): itself; registering a handler raises NSInvalidArgumentException"))
                }
                continue
            }
            if let index = seen[scheme] {
                registrations[index].rules.append(rule)
            } else {
                seen[scheme] = registrations.count
                registrations.append(Registration(scheme: scheme, rules: [rule]))
            }
        }
    }
}

extension SchemeHandlerPlan {
    /// The folder a registration serves: its first rule's `serve:` under the app's resources
    /// (`Bundle.resourceURL`); nil when its rules name a handler of the app's instead.
    public func package(for registration: Registration, resources: URL?) -> OfflinePackage? {
        registration.rules.lazy.compactMap(\.serve).first.flatMap { serve in resources.map { OfflinePackage(folder: $0.appendingPathComponent(serve)) } }
    }
}

/// What the policy's scheme handlers answer — `WKURLSchemeHandler` for a WKWebView and
/// `URLSchemeHandler` for a WebKit for SwiftUI page alike: the offline package's file, a 404,
/// or a failure when there is no package to serve from.
public struct PolicySchemeResponder: Sendable {
    public let package: OfflinePackage?

    public init(package: OfflinePackage?) {
        self.package = package
    }

    public func respond(to request: URLRequest) -> Result<(URLResponse, Data), Error> {
        guard let url = request.url else { return .failure(URLError(.badURL)) }
        guard let package else { return .failure(URLError(.fileDoesNotExist)) }
        return .success(package.response(for: url))
    }
}

/// Files an interception rule's `serve:` folder answers with: the URL's path under the folder,
/// `index.html` for a folder, never a path that climbs out of it.
public struct OfflinePackage: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder.standardizedFileURL
    }

    public enum Failure: Error, Sendable, Equatable {
        case notFound(String)
        case outsideThePackage(String)
    }

    /// The file for `url`, or why there is none.
    public func file(for url: URL) -> Result<URL, Failure> {
        var path = url.path
        if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
        let candidate = folder.appendingPathComponent(path).standardizedFileURL
        guard candidate.path.hasPrefix(folder.path + "/") else { return .failure(.outsideThePackage(url.path)) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder) else { return .failure(.notFound(url.path)) }
        if isFolder.boolValue { return file(for: url.appendingPathComponent("index.html")) }
        return .success(candidate)
    }

    /// The response for `url`: the file's bytes with its MIME type, or a 404.
    public func response(for url: URL) -> (URLResponse, Data) {
        switch file(for: url) {
        case .success(let file):
            let data = (try? Data(contentsOf: file)) ?? Data()
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                           headerFields: ["Content-Type": Self.mimeType(of: file.pathExtension), "Content-Length": "\(data.count)"])!
            return (response, data)
        case .failure:
            let body = Data("Not found".utf8)
            return (HTTPURLResponse(url: url, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/plain"])!, body)
        }
    }

    static func mimeType(of fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "html", "htm": return "text/html"
        case "css": return "text/css"
        case "js", "mjs": return "text/javascript"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "wasm": return "application/wasm"
        default: return "application/octet-stream"
        }
    }
}
