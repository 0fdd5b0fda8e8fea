import Foundation

extension Bundle {
    /// TestFlight and App Store builds, as the team meant it.
    var isProduction: Bool {
        #if DEBUG
        false
        #else
        appStoreReceiptURL?.path.contains("sandboxReceipt") == true
        #endif
    }
}

enum Environment {
    static var webInspectorRequested: Bool { ProcessInfo.processInfo.environment["WEB_INSPECTOR"] != nil }
}
