import WebPolicyRuntime

/// WebKit's answer to a permission request (`WKPermissionDecision`, iOS 15): the policy
/// never grants without the user, so it answers `.prompt` or `.deny`.
public enum PermissionAnswer: Sendable, Equatable {
    /// `.prompt`: WebKit asks the user.
    case prompt
    /// `.deny`: refused without asking; `reason` says which entry refused it.
    case deny(reason: String)
}

/// The permission half of the policy, for the app's `WKUIDelegate` media-capture and
/// device-orientation methods and a page's `deviceSensorAuthorization`. Decides with the
/// runtime's engine, as simulate decides a `permission` line.
public struct PermissionDecider: Sendable {
    public let policy: RuntimePolicy

    public init(policy: RuntimePolicy) {
        self.policy = policy
    }

    /// `mediaCaptureTypeRawValue`: `WKMediaCaptureType`'s raw value (camera 0, microphone 1,
    /// camera and microphone 2, WebKit's `WKUIDelegate.h`); nil: motion and orientation.
    /// `origin`: the requesting frame's security origin as `protocol://host[:port]`.
    public func decide(mediaCaptureTypeRawValue: Int?, origin: String, isMainFrame: Bool) -> PermissionAnswer {
        let kinds: [PermissionKind]
        switch mediaCaptureTypeRawValue {
        case nil: kinds = [.deviceMotion]
        case 0?: kinds = [.camera]
        case 1?: kinds = [.microphone]
        case 2?: kinds = [.camera, .microphone]
        // A capture type newer than this runtime: asked only if each kind it knows may be.
        default: kinds = [.camera, .microphone]
        }
        return decide(kinds, origin: origin, isMainFrame: isMainFrame)
    }

    public func decide(_ kinds: [PermissionKind], origin: String, isMainFrame: Bool) -> PermissionAnswer {
        let decision = policy.decidePermission(kinds, frameOrigin: origin, isMainFrame: isMainFrame)
        return decision.verdict == .allow ? .prompt : .deny(reason: decision.reason)
    }

    /// `protocol://host[:port]` from a `WKSecurityOrigin`'s parts (port 0: the scheme's default).
    public static func origin(protocol scheme: String, host: String, port: Int) -> String {
        scheme + "://" + host + (port == 0 ? "" : ":\(port)")
    }
}
