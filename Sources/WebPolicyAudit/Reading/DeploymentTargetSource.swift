import Foundation

/// Where an app says its iOS deployment target, in the order a draft believes them: an
/// xcconfig (what Xcode builds with when a configuration names it), an XcodeGen spec (from
/// which the project is generated, so it outranks the project it writes), a package manifest,
/// then the project file. Within one kind the oldest target wins: the code must run there.
public enum DeploymentTargetSource: Int, Sendable, Comparable, CaseIterable {
    case xcconfig, xcodeGen, packageManifest, project

    public init?(path: String) {
        let name = (path as NSString).lastPathComponent
        switch name {
        case _ where name.hasSuffix(".xcconfig"): self = .xcconfig
        case "project.yml", "project.yaml": self = .xcodeGen
        case "Package.swift": self = .packageManifest
        case "project.pbxproj": self = .project
        default: return nil
        }
    }

    public static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }

    /// How a draft names it.
    public var name: String {
        switch self {
        case .xcconfig: return "xcconfig"
        case .xcodeGen: return "XcodeGen spec"
        case .packageManifest: return "package manifest"
        case .project: return "Xcode project"
        }
    }

    /// "an xcconfig", "a package manifest" (all of them read "ex-" but the manifest).
    public var withArticle: String { (self == .packageManifest ? "a " : "an ") + name }

    public func targets(in text: String) -> [String] {
        switch self {
        case .xcconfig, .project: return Self.buildSettingValues(in: text)
        case .xcodeGen: return Self.buildSettingValues(in: text) + Self.xcodeGenTargets(in: text)
        case .packageManifest: return Self.packagePlatforms(in: text)
        }
    }

    /// `IPHONEOS_DEPLOYMENT_TARGET = 15.0;` in a project file, `= 15.0` in an xcconfig,
    /// `IPHONEOS_DEPLOYMENT_TARGET: "15.0"` in an XcodeGen spec's settings.
    static func buildSettingValues(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "IPHONEOS_DEPLOYMENT_TARGET") {
            rest = rest[range.upperBound...]
            let value = rest.drop { $0 == " " || $0 == "\t" || $0 == "=" || $0 == ":" || $0 == "\"" || $0 == "'" }.prefix { $0.isNumber || $0 == "." }
            if let first = value.first, first.isNumber { found.append(String(value)) }
        }
        return found
    }

    /// XcodeGen's `deploymentTarget:` — a mapping of platforms (`iOS: 17.6`) under `options:`,
    /// or a target's own version string.
    static func xcodeGenTargets(in text: String) -> [String] {
        var found: [String] = []
        let lines = text.components(separatedBy: "\n")
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("deploymentTarget:") else { continue }
            let indent = line.count - trimmed.count
            let inline = Self.version(trimmed.dropFirst("deploymentTarget:".count))
            if let inline {
                found.append(inline)
                continue
            }
            for next in lines[(index + 1)...] {
                let nested = next.drop { $0 == " " }
                if nested.isEmpty || nested.hasPrefix("#") { continue }
                guard next.count - nested.count > indent else { break }
                if nested.hasPrefix("iOS:"), let version = Self.version(nested.dropFirst("iOS:".count)) { found.append(version) }
            }
        }
        return found
    }

    /// `.iOS(.v16)`, `.iOS(.v16_4)`, `.iOS("16.4")` in a package's `platforms:`.
    static func packagePlatforms(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: ".iOS(") {
            rest = rest[range.upperBound...]
            let argument = rest.prefix { $0 != ")" }
            if argument.hasPrefix(".v") {
                let parts = argument.dropFirst(2).split(separator: "_").map(String.init)
                if !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
                    found.append(parts.count == 1 ? parts[0] + ".0" : parts.joined(separator: "."))
                }
            } else if let version = Self.version(argument) {
                found.append(version)
            }
        }
        return found
    }

    /// `17.6`, `"15.0"`, `'16'` after a key, up to a comment.
    private static func version(_ text: Substring) -> String? {
        let value = text.drop { $0 == " " || $0 == "\"" || $0 == "'" }.prefix { $0.isNumber || $0 == "." }
        guard let first = value.first, first.isNumber else { return nil }
        return value.contains(".") ? String(value) : String(value) + ".0"
    }
}
