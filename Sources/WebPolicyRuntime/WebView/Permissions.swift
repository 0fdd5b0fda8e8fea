/// A device capability a page asks for through WebKit: the camera and microphone
/// (`getUserMedia`, asked of `WKUIDelegate.webView(_:requestMediaCapturePermissionFor:
/// initiatedByFrame:type:decisionHandler:)`, iOS 15) and motion and orientation sensors
/// (`DeviceMotionEvent.requestPermission()`, asked of
/// `requestDeviceOrientationAndMotionPermissionFor`, iOS 15). WebKit for SwiftUI asks
/// `WebPage.Configuration.deviceSensorAuthorization` (iOS 26) for both.
public enum PermissionKind: String, Sendable, CaseIterable, Comparable {
    case camera
    case microphone
    case deviceMotion = "device-motion"

    public static func < (lhs: PermissionKind, rhs: PermissionKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The first iOS whose UI delegate is asked: before it, WebKit decided alone.
    public static let firstIOS = "15.0"
}

/// What `webview.permissions` says of one capability.
public enum PermissionRule: Sendable, Equatable {
    /// Refused without asking the user (`WKPermissionDecision.deny`).
    case deny
    /// The user is asked, whoever asks (`.prompt`, WebKit's own answer without a delegate).
    case ask
    /// The user is asked when the requesting frame's origin is one of these (over https, or
    /// a role's bound origin); every other origin is refused without asking.
    case origins([HostScope])

    /// `deny`, `ask`, `origins`: the manifest's and the reports' word.
    public var kind: String {
        switch self {
        case .deny: return "deny"
        case .ask: return "ask"
        case .origins: return "origins"
        }
    }
}

/// `webview.permissions`: a rule per capability the policy names, with where each is written.
public struct PermissionRules: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var rule: PermissionRule
        public var location: SourceLocation?

        public init(_ rule: PermissionRule, location: SourceLocation? = nil) {
            self.rule = rule
            self.location = location
        }
    }

    public var entries: [PermissionKind: Entry] = [:]

    public init(_ entries: [PermissionKind: Entry] = [:]) {
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty }

    public subscript(kind: PermissionKind) -> Entry? {
        get { entries[kind] }
        set { entries[kind] = newValue }
    }
}

/// A page asks for one or more capabilities at once (a call asks for the camera and the
/// microphone together: `WKMediaCaptureType.cameraAndMicrophone`), from a frame whose
/// document is `frameURL`.
public struct PermissionRequest: Sendable {
    public var kinds: [PermissionKind]
    public var frameURL: CanonicalURL
    public var frame: MessageFrame

    public init(kinds: [PermissionKind], frameURL: CanonicalURL, frame: MessageFrame = .main) {
        self.kinds = kinds.sorted()
        self.frameURL = frameURL
        self.frame = frame
    }

    /// `camera`, `camera+microphone`: the trace's word for the request.
    public var written: String { kinds.map(\.rawValue).joined(separator: "+") }
}
