import Foundation

/// Files webpolicy ships as package resources (the Public Suffix List, the WebKit helper),
/// found beside the executable, in the app bundle, or in a framework that links them.
/// SwiftPM's `Bundle.module` would end the process when the resources are not installed; this
/// looks in the same places and lets the caller report.
package enum PackageResource {
    /// `target`: the SwiftPM target whose resource bundle holds the file
    /// (`webpolicy_<target>.resources` on Linux, `.bundle` on Apple platforms).
    package static func path(of name: String, target: String, fallbackFolders: [String] = []) -> String? {
        let bundleName = "webpolicy_\(target)"
        var bases: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        bases += [executable, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        #if canImport(Darwin)
        // An app or a test bundle: SwiftPM's resource bundles sit in the app bundle or in the
        // framework that links the target.
        if let resources = Bundle.main.resourceURL { bases.append(resources) }
        bases += Bundle.allFrameworks.compactMap(\.resourceURL) + Bundle.allBundles.compactMap(\.resourceURL)
        #endif
        var folders: [URL] = []
        for base in bases {
            folders.append(base.appendingPathComponent("\(bundleName).resources"))
            folders.append(base.appendingPathComponent("\(bundleName).bundle"))
            folders.append(base.appendingPathComponent("\(bundleName).bundle/Contents/Resources"))
        }
        folders += fallbackFolders.map { URL(fileURLWithPath: $0) }
        return folders.map { $0.appendingPathComponent(name).path }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
