import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The files of an app that the audit reads, found under the paths it is given: Swift,
/// Objective-C, property lists (`Info.plist` and friends, `.entitlements`) and Interface
/// Builder documents. Test targets are left out unless asked for (audit-checks.md §11.3), and
/// so are folders of code the app does not own — dependency managers' checkouts, build
/// products — which the report names, so their absence is never silent.
public struct AppTree: Sendable {
    public enum Kind: Sendable, Equatable {
        case swift, objectiveC, plist, entitlements, interfaceBuilder
        /// `project.pbxproj`, `.xcconfig` and XcodeGen's `project.yml`: read for the
        /// deployment target only.
        case buildSettings
    }

    public struct File: Sendable {
        public var path: String
        public var kind: Kind
    }

    public var files: [File] = []
    /// Test files left out (`--include-tests` reads them).
    public var skippedTests = 0
    /// Third-party and generated folders left out, by path.
    public var skippedFolders: [String] = []
    /// Swift files left out because this build has no Swift reader (the build plugin only).
    public var skippedSwift = 0

    /// Folders of code the app does not write: CocoaPods, Carthage, SwiftPM's and Xcode's
    /// checkouts, build products, JavaScript packages.
    static let foreignFolders: Set<String> = ["Pods", "Carthage", ".build", "DerivedData", "SourcePackages", "node_modules", ".git", ".swiftpm", "build"]

    public static func find(paths: [String], includeTests: Bool, exclude: [PathGlob] = [], excludeBase: String? = nil) throws(InputError) -> AppTree {
        var tree = AppTree()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError("no such file or folder: \(path)")
            }
            if !isDirectory.boolValue {
                // A file named on the command line is read whatever its folder.
                if let kind = kind(of: path) { tree.files.append(File(path: PathNormalizer.display(path), kind: kind)) }
                continue
            }
            tree.walk(path, includeTests: includeTests, exclude: exclude, excludeBase: excludeBase)
        }
        tree.files.sort { $0.path < $1.path }
        return tree
    }

    static func kind(of path: String) -> Kind? {
        let name = (path as NSString).lastPathComponent
        if name == "project.yml" || name == "project.yaml" { return .buildSettings }
        switch (path as NSString).pathExtension {
        case "swift": return .swift
        case "m", "mm", "h": return .objectiveC
        case "plist": return .plist
        case "entitlements": return .entitlements
        case "storyboard", "xib": return .interfaceBuilder
        case "pbxproj", "xcconfig": return .buildSettings
        default: return nil
        }
    }

    /// Tests by convention: a folder named `Tests`, `*Tests`, `*UITests` or `*Specs`, or a
    /// file named `*Tests.swift`, `*Test.m` and the like.
    static func isTest(_ relative: String) -> Bool {
        let components = relative.split(separator: "/")
        for folder in components.dropLast() {
            if folder == "Tests" || folder == "Test" || folder.hasSuffix("Tests") || folder.hasSuffix("Specs") || folder == "Mocks" { return true }
        }
        guard let name = components.last else { return false }
        let stem = (String(name) as NSString).deletingPathExtension
        return stem.hasSuffix("Tests") || stem.hasSuffix("Test") || stem.hasSuffix("Spec") || stem.hasSuffix("Mock") || stem.hasSuffix("Mocks")
    }

    private mutating func walk(_ root: String, includeTests: Bool, exclude: [PathGlob], excludeBase: String?) {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return }
        let base = excludeBase.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            let full = (root as NSString).appendingPathComponent(relative)
            let isDirectory = (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory
            if isDirectory {
                if Self.foreignFolders.contains(name) || (name.hasPrefix(".") && name != ".") {
                    if !name.hasPrefix(".") || name == ".build" { skippedFolders.append(PathNormalizer.display(full)) }
                    enumerator.skipDescendants()
                } else if name.hasSuffix(".xcassets") || name.hasSuffix(".xcworkspace") || (name.hasSuffix(".bundle") && !relative.contains(".app/")) {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard let kind = Self.kind(of: name) else { continue }
            if let base, !exclude.isEmpty {
                let absolute = URL(fileURLWithPath: full).standardizedFileURL.path
                if absolute.hasPrefix(base + "/"), exclude.contains(where: { $0.matches(String(absolute.dropFirst(base.count + 1))) }) { continue }
            }
            if !includeTests, Self.isTest(relative) {
                skippedTests += 1
                continue
            }
            // Only the plists that configure a target: Info.plist and its variants.
            if kind == .plist, !(name.hasSuffix("Info.plist") || name.hasPrefix("Info")) { continue }
            files.append(File(path: PathNormalizer.display(full), kind: kind))
        }
    }
}
