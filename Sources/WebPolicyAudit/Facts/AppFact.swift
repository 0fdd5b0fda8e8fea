import WebPolicyRuntime

/// One thing the app's code does with a web view, read from a Swift or Objective-C file or an
/// Interface Builder document. Readers record facts; checks read facts and the policy and
/// never walk a syntax tree, so each check is testable with hand-written facts and the JSON
/// inventory is the facts themselves (MASTG-TEST-0076's "identify WebView usage").
public struct AppFact: Sendable, Hashable {
    public var site: FactSite
    public var kind: Kind

    public init(_ kind: Kind, at site: FactSite) {
        self.kind = kind
        self.site = site
    }

    public enum Kind: Sendable, Hashable {
        /// `add(_:name:)`, `add(_:contentWorld:name:)`, `addScriptMessageHandler(_:contentWorld:name:)`
        /// and the Objective-C selectors; or the runtime's `ScriptMessageGate.register(_:as:in:)`.
        case messageHandler(MessageHandler)
        /// `setURLSchemeHandler(_:forURLScheme:)`, or the runtime's `SchemeHandlerPlan.register(in:)`.
        case schemeHandler(SchemeHandler)
        /// `WKWebView(…)`, a subclass's initialiser, or `<wkWebView>` in Interface Builder.
        case webView(WebViewConstruction)
        /// An assignment to a web-view or configuration property.
        case setting(Setting)
        case load(Load)
        /// `evaluateJavaScript` / `callAsyncJavaScript` with a script that is not a literal.
        case script(Script)
        /// A navigation, UI or script-message delegate method the app implements.
        case delegate(DelegateMethod)
        /// Everything else worth an inventory line: cookies, private API, KVC, URLProtocol,
        /// user scripts, opening URLs, the runtime's calls.
        case api(APIUse)
        /// A URL the page chose (a new window's, a navigation's, a message's) handed to the
        /// system to open, and which schemes can reach that call.
        case handOff(HandOff)
    }

    public struct MessageHandler: Sendable, Hashable {
        public var name: CodeValue
        /// `page`, `client`, a named world, or an expression; nil: the page world (no argument).
        public var world: CodeValue?
        public var reply: Bool
        /// Registered through the runtime's `ScriptMessageGate`, which checks every message
        /// against the policy's bridge.
        public var throughGate: Bool
        /// The handler's class when the source shows it (`self` in a class, `Handler()`, a
        /// `let` holding one): whose `userContentController(_:didReceive:)` receives the messages.
        public var handlerClass: String?

        public init(name: CodeValue, world: CodeValue? = nil, reply: Bool, throughGate: Bool = false, handlerClass: String? = nil) {
            self.name = name
            self.world = world
            self.reply = reply
            self.throughGate = throughGate
            self.handlerClass = handlerClass
        }

        /// The world as the policy names it, when the source says it plainly.
        public var worldName: String? {
            guard let world else { return "page" }
            return world.stringValue
        }
    }

    public struct SchemeHandler: Sendable, Hashable {
        /// nil for the runtime's `SchemeHandlerPlan`, which registers every scheme the policy
        /// intercepts.
        public var scheme: CodeValue?
        /// A `WKWebView.handlesURLScheme(_:)` test in the same function.
        public var guarded: Bool
        /// The handler's class when the source makes it in place (`AssetHandler()`), else the
        /// handler as written.
        public var handler: String?
        /// WebKit for SwiftUI's `urlSchemeHandlers[URLScheme("x")!]`: a scheme WebKit handles
        /// makes `URLScheme(_:)` nil, so the `!` traps, rather than the call raising.
        public var viaURLScheme: Bool

        public init(scheme: CodeValue?, guarded: Bool = false, handler: String? = nil, viaURLScheme: Bool = false) {
            self.scheme = scheme
            self.guarded = guarded
            self.handler = handler
            self.viaURLScheme = viaURLScheme
        }
    }

    public struct WebViewConstruction: Sendable, Hashable {
        public var className: String
        /// The `configuration:` argument as written, if any.
        public var configuration: String?
        /// The configuration comes from the runtime (`makeWebViewConfiguration`, or one passed
        /// through `configureWebView` in the same function), or the view is `makeWebView`'s.
        public var managed: Bool
        /// Archived in a storyboard or xib: WebKit builds it from the archived configuration.
        public var interfaceBuilder: Bool
        /// Built in `webView(_:createWebViewWith:for:windowFeatures:)`: a second view for a
        /// new window.
        public var forNewWindow: Bool

        public init(className: String, configuration: String? = nil, managed: Bool = false, interfaceBuilder: Bool = false, forNewWindow: Bool = false) {
            self.className = className
            self.configuration = configuration
            self.managed = managed
            self.interfaceBuilder = interfaceBuilder
            self.forNewWindow = forNewWindow
        }
    }

    public struct Setting: Sendable, Hashable {
        public var key: SettingKey
        public var value: CodeValue
        /// The assigned expression as written (`webView.configuration.limitsNavigationsToAppBoundDomains`).
        public var target: String
        /// Set through a view's `configuration`, which returns a copy: the assignment is dead.
        public var onCopy: Bool
        /// The run-time tests the assignment sits behind (`if !Bundle.main.isProduction`), all
        /// of which must hold for it to run.
        public var condition: RuntimeCondition?
        /// The value as a run-time test, when it is one (`isInspectable = Settings.isDebug`).
        public var valueCondition: RuntimeCondition?

        public init(key: SettingKey, value: CodeValue, target: String, onCopy: Bool = false, condition: RuntimeCondition? = nil, valueCondition: RuntimeCondition? = nil) {
            self.key = key
            self.value = value
            self.target = target
            self.onCopy = onCopy
            self.condition = condition
            self.valueCondition = valueCondition
        }
    }

    /// A setting the readers recognise. Those of `webview:` are named as the catalogue's
    /// Objective-C name (`WebViewSettingCatalogue`), so each row maps to its case.
    public enum SettingKey: String, Sendable, CaseIterable {
        case inspectable
        /// `defaultWebpagePreferences.allowsContentJavaScript` (iOS 14).
        case allowsContentJavaScript
        /// `preferences.javaScriptEnabled` (deprecated in iOS 14).
        case javaScriptEnabled
        case javaScriptCanOpenWindowsAutomatically
        case dataDetectorTypes
        case upgradeKnownHostsToHTTPS
        case fraudulentWebsiteWarningEnabled
        /// `preferences.isElementFullscreenEnabled` (iOS 15.4).
        case elementFullscreenEnabled
        case limitsNavigationsToAppBoundDomains
        case navigationDelegate
        case uiDelegate
        /// The web-page preferences of `WebViewSettingCatalogue.choices` (`lockdown`, …).
        case lockdownModeEnabled
        case securityRestrictionMode
        case preferredHTTPSNavigationPolicy
        /// `websiteDataStore` (`webview.data-store`).
        case websiteDataStore
        /// `webExtensionController` (`webview.web-extensions`, iOS 18.4).
        case webExtensionController
        /// WebKit for SwiftUI's `deviceSensorAuthorization` (`webview.permissions`, iOS 26).
        case deviceSensorAuthorization

        /// The web-page preference row this key sets, if it is one.
        public var choiceRow: WebViewChoiceSetting? { WebViewSettingCatalogue.choices.first { $0.objectiveCName == rawValue } }

        /// The key of a catalogue row.
        public init?(_ row: WebViewBooleanSetting) { self.init(rawValue: row.objectiveCName) }

        /// The catalogue row this key sets, if it is one.
        public var row: WebViewBooleanSetting? { WebViewSettingCatalogue.booleans.first { $0.objectiveCName == rawValue } }

        /// Only scalar properties of the configuration are dead when set through a view's
        /// copy; objects reached through it (preferences, the content controller) are shared.
        /// A catalogue row is one when it is set on the configuration itself (no dot in its
        /// key path).
        public var isConfigurationScalar: Bool {
            if let row { return row.target == .configuration && !row.keyPath.contains(".") }
            switch self {
            case .dataDetectorTypes, .limitsNavigationsToAppBoundDomains, .websiteDataStore, .webExtensionController: return true
            default: return false
            }
        }
    }

    public struct Load: Sendable, Hashable {
        public enum API: String, Sendable {
            case loadFileURL, loadFileRequest, loadHTMLString, loadData
        }
        public var api: API
        /// The HTML (or data) for `loadHTMLString` / `loadData`, the file URL for the others.
        public var content: CodeValue
        /// The base URL, or the read-access URL of a file load.
        public var base: CodeValue
        /// How the code spelt it when that is not `api` (WebKit for SwiftUI's
        /// `load(html:baseURL:)` is a `loadHTMLString`).
        public var spelling: String?

        public init(api: API, content: CodeValue, base: CodeValue, spelling: String? = nil) {
            self.api = api
            self.content = content
            self.base = base
            self.spelling = spelling
        }

        /// The call as reports name it.
        public var written: String { spelling ?? api.rawValue }
    }

    public struct Script: Sendable, Hashable {
        public var api: String
        public var script: CodeValue
        /// The values spliced into the script text and where each came from (the Swift
        /// reader's value flow); nil where the reader has none (Objective-C), and then the
        /// script is judged by its text.
        public var splices: [ScriptSplice]?

        public init(api: String, script: CodeValue, splices: [ScriptSplice]? = nil) {
            self.api = api
            self.script = script
            self.splices = splices
        }
    }

    public struct DelegateMethod: Sendable, Hashable {
        public enum Role: String, Sendable {
            /// `webView(_:decidePolicyFor:decisionHandler:)` for a navigation action.
            case decideNavigationAction = "decide-navigation-action"
            /// `webView(_:createWebViewWith:for:windowFeatures:)`.
            case createWebView = "create-web-view"
            /// `webView(_:didReceive:completionHandler:)` for an authentication challenge.
            case authenticationChallenge = "authentication-challenge"
            /// `userContentController(_:didReceive:)`.
            case receiveScriptMessage = "receive-script-message"
            /// `webView(_:requestMediaCapturePermissionFor:initiatedByFrame:type:decisionHandler:)` (iOS 15).
            case mediaCapturePermission = "media-capture-permission"
            /// `webView(_:requestDeviceOrientationAndMotionPermissionFor:initiatedByFrame:decisionHandler:)` (iOS 15).
            case deviceOrientationPermission = "device-orientation-permission"
        }
        public var role: Role
        /// The body reads `frameInfo` (a script-message handler that checks its sender).
        public var readsFrameInfo: Bool
        /// The body builds a web view (`createWebViewWith` returning a second view).
        public var buildsWebView: Bool
        /// The body tests `isMainFrame`: a gate that admits the main frame only.
        public var testsMainFrame: Bool
        /// Hosts the body compares the sender's origin (or URL) with, as literals.
        public var comparedHosts: [String]
        /// A permission request: the body answers `.grant` somewhere.
        public var grants: Bool
        /// A permission request: the body reads the requesting origin or frame before answering.
        public var readsRequester: Bool
        /// WebKit for SwiftUI's (`WebPage.NavigationDeciding`), not a WKWebView delegate's.
        public var ofWebPage = false

        public init(role: Role, readsFrameInfo: Bool = false, buildsWebView: Bool = false, testsMainFrame: Bool = false, comparedHosts: [String] = [],
                    grants: Bool = false, readsRequester: Bool = false) {
            self.role = role
            self.readsFrameInfo = readsFrameInfo
            self.buildsWebView = buildsWebView
            self.testsMainFrame = testsMainFrame
            self.comparedHosts = comparedHosts
            self.grants = grants
            self.readsRequester = readsRequester
        }
    }

    public struct APIUse: Sendable, Hashable {
        public enum API: String, Sendable {
            /// `UIWebView`, refused by App Review since 2020.
            case uiWebView = "UIWebView"
            /// A private WebKit name (`registerSchemeForCustomProtocol`, `WKBrowsingContextController`).
            case privateAPI = "private-api"
            /// `setValue(_:forKey:)` with a literal key.
            case keyValueCoding = "kvc"
            /// `URLProtocol.registerClass` / `protocolClasses`.
            case urlProtocol = "url-protocol"
            /// `WKHTTPCookieStore.setCookie`.
            case cookieStore = "cookie-store"
            case userScript = "user-script"
            case canOpenURL = "can-open-url"
            case openURL = "open-url"
            /// `compileContentRuleList(forIdentifier:…)`.
            case contentRuleList = "content-rule-list"
            /// The runtime's navigation decider (`NavigationDecider`), installed by the app.
            case runtimeNavigation = "runtime-navigation"
        }
        public var api: API
        /// What the call names: the KVC key, the private name, a user script's main-frame flag.
        public var detail: CodeValue?
        /// What the call is made on, as written (`webView`, `configuration.preferences`); nil
        /// for a call on `self` or none.
        public var receiver: String?

        public init(_ api: API, detail: CodeValue? = nil, receiver: String? = nil) {
            self.api = api
            self.detail = detail
            self.receiver = receiver
        }
    }
}
