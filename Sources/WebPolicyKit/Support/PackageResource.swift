import Foundation

/// Files webpolicy ships as package resources (the Public Suffix List, the WebKit helper),
/// found beside the executable. SwiftPM's `Bundle.module` would end the process when the
/// resources are not installed; this looks in the same places and lets the caller report.
enum PackageResource {
    static func path(of name: String, fallbackFolders: [String] = []) -> String? {
        var folders: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for base in [executable, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
            folders.append(base.appendingPathComponent("webpolicy_WebPolicyKit.resources"))
            folders.append(base.appendingPathComponent("webpolicy_WebPolicyKit.bundle"))
            folders.append(base.appendingPathComponent("webpolicy_WebPolicyKit.bundle/Contents/Resources"))
        }
        folders += fallbackFolders.map { URL(fileURLWithPath: $0) }
        return folders.map { $0.appendingPathComponent(name).path }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
