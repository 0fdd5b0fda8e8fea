/// The WebKit calls the audit reads, as data: each row how Swift and Objective-C spell the API,
/// the fact it yields, the policy section it bears on, the first iOS that has it and the WebKit
/// file that declares it. The Swift reader, the Objective-C reader and the draft all ask this
/// table, so a call is recognised in both languages or in neither; `Tests/Fixtures/audit/
/// webkit-api-citations.txt` holds the line of WebKit's source that declares every spelling
/// (`ci/checks/webkit_api_catalogue.py` checks them against a WebKit checkout), and a test
/// fails for a row without one.
public enum WebKitAPICatalogue {
    /// What a call tells the audit.
    public enum Fact: Sendable, Hashable {
        /// A script message handler registered (`reply`: with `WKScriptMessageHandlerWithReply`).
        case messageHandler(reply: Bool)
        /// A handler for a custom scheme.
        case schemeHandler
        /// `handlesURLScheme(_:)`: the code asks whether WebKit handles a scheme itself.
        case schemeCheck
        case load(AppFact.Load.API)
        /// Script text run in the page.
        case script
        case cookieStore
        case userScript
        case contentRuleList
    }

    /// A Swift spelling: the base name and the argument labels (`_` for none); nil labels
    /// match any, where the arguments vary (trailing closures, defaulted arguments, `async`
    /// twins) and the reader finds the one it reads by its place or label.
    public struct SwiftSpelling: Sendable, Hashable {
        public var name: String
        public var labels: [String]?
        /// A property the code assigns (`urlSchemeHandlers[scheme] = handler`), not a call.
        public var isProperty: Bool

        public init(_ name: String, _ labels: [String]? = nil) {
            self.name = name
            self.labels = labels
            isProperty = false
        }

        public static func property(_ name: String) -> SwiftSpelling {
            var spelling = SwiftSpelling(name, [])
            spelling.isProperty = true
            return spelling
        }

        /// `loadHTMLString(_:baseURL:)`, `callJavaScript(_:…)`, `urlSchemeHandlers`.
        public var written: String {
            if isProperty { return name }
            guard let labels else { return name + "(_:…)" }
            return name + "(" + labels.map { $0 + ":" }.joined() + ")"
        }
    }

    public struct Row: Sendable {
        public var fact: Fact
        public var swift: [SwiftSpelling]
        /// Objective-C selectors; none for API that exists in Swift only (WebKit for SwiftUI).
        public var objectiveC: [String]
        /// The policy section the fact bears on.
        public var section: String
        /// The first iOS version with the API.
        public var since: String
        /// Where WebKit declares it, in WebKit's repository.
        public var declaredIn: String
    }

    static let cocoa = "Source/WebKit/UIProcess/API/Cocoa/"
    static let swiftAPI = "Source/WebKit/UIProcess/API/Swift/"

    public static let rows: [Row] = [
        // Bridges
        Row(fact: .messageHandler(reply: false), swift: [SwiftSpelling("add", ["_", "name"])],
            objectiveC: ["addScriptMessageHandler:name:"], section: "bridges", since: "8.0", declaredIn: cocoa + "WKUserContentController.h"),
        Row(fact: .messageHandler(reply: false), swift: [SwiftSpelling("add", ["_", "contentWorld", "name"])],
            objectiveC: ["addScriptMessageHandler:contentWorld:name:"], section: "bridges", since: "14.0", declaredIn: cocoa + "WKUserContentController.h"),
        Row(fact: .messageHandler(reply: true), swift: [SwiftSpelling("addScriptMessageHandler", ["_", "contentWorld", "name"])],
            objectiveC: ["addScriptMessageHandlerWithReply:contentWorld:name:"], section: "bridges", since: "14.0", declaredIn: cocoa + "WKUserContentController.h"),
        // Interception
        Row(fact: .schemeHandler, swift: [SwiftSpelling("setURLSchemeHandler", ["_", "forURLScheme"])],
            objectiveC: ["setURLSchemeHandler:forURLScheme:"], section: "interception", since: "11.0", declaredIn: cocoa + "WKWebViewConfiguration.h"),
        Row(fact: .schemeHandler, swift: [.property("urlSchemeHandlers")],
            objectiveC: [], section: "interception", since: "26.0", declaredIn: swiftAPI + "WebPage+Configuration.swift"),
        Row(fact: .schemeCheck, swift: [SwiftSpelling("handlesURLScheme", ["_"])],
            objectiveC: ["handlesURLScheme:"], section: "interception", since: "11.0", declaredIn: cocoa + "WKWebView.h"),
        // Loads: webview's file-access, and pages without an origin
        Row(fact: .load(.loadFileURL), swift: [SwiftSpelling("loadFileURL", ["_", "allowingReadAccessTo"])],
            objectiveC: ["loadFileURL:allowingReadAccessToURL:"], section: "webview", since: "9.0", declaredIn: cocoa + "WKWebView.h"),
        Row(fact: .load(.loadFileRequest), swift: [SwiftSpelling("loadFileRequest", ["_", "allowingReadAccessTo"])],
            objectiveC: ["loadFileRequest:allowingReadAccessToURL:"], section: "webview", since: "15.0", declaredIn: cocoa + "WKWebView.h"),
        Row(fact: .load(.loadHTMLString), swift: [SwiftSpelling("loadHTMLString", ["_", "baseURL"])],
            objectiveC: ["loadHTMLString:baseURL:"], section: "webview", since: "8.0", declaredIn: cocoa + "WKWebView.h"),
        Row(fact: .load(.loadData), swift: [SwiftSpelling("load", ["_", "mimeType", "characterEncodingName", "baseURL"])],
            objectiveC: ["loadData:MIMEType:characterEncodingName:baseURL:"], section: "webview", since: "9.0", declaredIn: cocoa + "WKWebView.h"),
        // Scripts the app runs in the page
        Row(fact: .script, swift: [SwiftSpelling("evaluateJavaScript")],
            objectiveC: ["evaluateJavaScript:completionHandler:", "evaluateJavaScript:inFrame:inContentWorld:completionHandler:"],
            section: "bridges", since: "8.0", declaredIn: cocoa + "WKWebView.h"),
        Row(fact: .script, swift: [SwiftSpelling("callAsyncJavaScript")],
            objectiveC: ["callAsyncJavaScript:arguments:inFrame:inContentWorld:completionHandler:"], section: "bridges", since: "14.0", declaredIn: cocoa + "WKWebView.h"),
        // Cookies, user scripts, content rules
        Row(fact: .cookieStore, swift: [SwiftSpelling("setCookie")],
            objectiveC: ["setCookie:completionHandler:"], section: "cookies", since: "11.0", declaredIn: cocoa + "WKHTTPCookieStore.h"),
        Row(fact: .userScript, swift: [SwiftSpelling("WKUserScript", ["source", "injectionTime", "forMainFrameOnly"]),
                                       SwiftSpelling("WKUserScript", ["source", "injectionTime", "forMainFrameOnly", "in"])],
            objectiveC: ["initWithSource:injectionTime:forMainFrameOnly:", "initWithSource:injectionTime:forMainFrameOnly:inContentWorld:"],
            section: "bridges", since: "8.0", declaredIn: cocoa + "WKUserScript.h"),
        Row(fact: .contentRuleList, swift: [SwiftSpelling("compileContentRuleList")],
            objectiveC: ["compileContentRuleListForIdentifier:encodedContentRuleList:completionHandler:"], section: "content-rules", since: "11.0",
            declaredIn: cocoa + "WKContentRuleListStore.h"),
        // WebKit for SwiftUI (iOS 26): WebPage's own loads and scripts.
        Row(fact: .load(.loadHTMLString), swift: [SwiftSpelling("load", ["html", "baseURL"])],
            objectiveC: [], section: "webview", since: "26.0", declaredIn: swiftAPI + "WebPage.swift"),
        Row(fact: .load(.loadFileURL), swift: [SwiftSpelling("load", ["fileURL", "allowingReadAccessTo"])],
            objectiveC: [], section: "webview", since: "26.0", declaredIn: swiftAPI + "WebPage.swift"),
        Row(fact: .load(.loadFileRequest), swift: [SwiftSpelling("load", ["fileRequest", "allowingReadAccessTo"])],
            objectiveC: [], section: "webview", since: "26.0", declaredIn: swiftAPI + "WebPage.swift"),
        Row(fact: .load(.loadData), swift: [SwiftSpelling("load", ["_", "mimeType", "characterEncoding", "baseURL"])],
            objectiveC: [], section: "webview", since: "26.0", declaredIn: swiftAPI + "WebPage.swift"),
        Row(fact: .script, swift: [SwiftSpelling("callJavaScript")],
            objectiveC: [], section: "bridges", since: "26.0", declaredIn: swiftAPI + "WebPage.swift"),
    ]

    /// The row a Swift call is, by its base name and labels.
    public static func swiftCall(_ name: String, labels: [String]) -> (row: Row, spelling: SwiftSpelling)? {
        guard let candidates = bySwiftName[name] else { return nil }
        return candidates.first { _, spelling in !spelling.isProperty && (spelling.labels == nil || spelling.labels == labels) }
    }

    /// The row a Swift property the code assigns is.
    public static func swiftProperty(_ name: String) -> Row? {
        bySwiftName[name]?.first { $0.1.isProperty }?.0
    }

    /// Whether a Swift callee's base name is one of the catalogue's (most calls of an app are
    /// not, and leave before their arguments are listed).
    public static func isSwiftName(_ name: String) -> Bool { bySwiftName[name] != nil }

    /// The row an Objective-C message is, by its selector.
    public static func objectiveCCall(_ selector: String) -> Row? { bySelector[selector] }

    private static let bySwiftName: [String: [(Row, SwiftSpelling)]] = {
        var table: [String: [(Row, SwiftSpelling)]] = [:]
        for row in rows {
            for spelling in row.swift { table[spelling.name, default: []].append((row, spelling)) }
        }
        return table
    }()

    private static let bySelector: [String: Row] = {
        var table: [String: Row] = [:]
        for row in rows {
            for selector in row.objectiveC { table[selector] = row }
        }
        return table
    }()
}
