import Foundation
import WebPolicyRuntime

/// The runtime manifest of a policy (`Manifest`, in WebPolicyRuntime): what the app's own code
/// enforces — the http and scheme allowlists for its navigation delegate, the cookies to
/// inject, the interception rules for its scheme handlers — and the compiled content-rule
/// lists with where each rule came from. `webpolicy simulate` decides with the same value,
/// built here from the policy, that the app decodes from the file compile writes.
public enum RuntimeManifest {
    public struct ListFile: Sendable {
        public var identifier: String
        public var fileName: String
        public var rules: [LoweredRule]
        /// The SHA-256 of the list's file; nil when the list is not written (simulate).
        public var sha256: String?
        /// The engine image written beside the list; nil when none is (simulate).
        public var image: String?
        /// A `content-rule-lists:` list, copied as it is: its rules come from the entry.
        public var external: (reference: ContentRuleListReference, ruleCount: Int)? = nil

        public init(identifier: String, fileName: String, rules: [LoweredRule], sha256: String? = nil, image: String? = nil,
                    external: (reference: ContentRuleListReference, ruleCount: Int)? = nil) {
            self.identifier = identifier
            self.fileName = fileName
            self.rules = rules
            self.sha256 = sha256
            self.image = image
            self.external = external
        }
    }

    /// The manifest as the policy gives it, locations as loaded (paths as the user named them).
    public static func make(_ policy: Policy, lists: [ListFile]) -> Manifest {
        var manifest = Manifest(policyName: policy.name ?? "", policyDescription: policy.root.description?.value,
                                targetIOS: policy.targetVersion.description, distribution: policy.distribution.rawValue)
        // Each section lowers its own part; the content-rule lists come from `lists`.
        for section in Sections.all { section.lower(policy, lists: lists, into: &manifest) }
        return manifest
    }

    /// The manifest file: locations relative to the policy's folder, so the same policy gives
    /// the same bytes from any working folder.
    public static func render(_ policy: Policy, lists: [ListFile]) -> String {
        let policyFolder = (policy.root.file.path as NSString).deletingLastPathComponent
        var relativePaths: [String: String] = [:]
        return make(policy, lists: lists).serialized { path in
            if let known = relativePaths[path] { return known }
            let relative = RelativePath.of(path, from: policyFolder)
            relativePaths[path] = relative
            return relative
        }
    }

    /// Which policy rule each stretch of a list comes from (a `hosts:` rule expands to many
    /// consecutive rules), so the app can map a WebKit rule index back to the policy.
    static func sources(of rules: [LoweredRule]) -> [Manifest.RuleSource] {
        var entries: [Manifest.RuleSource] = []
        var index = 0
        while index < rules.count {
            let source = rules[index].source
            var end = index + 1
            while end < rules.count, rules[end].source === source { end += 1 }
            entries.append(Manifest.RuleSource(firstRule: index, ruleCount: end - index, id: source.id?.value, location: source.location))
            index = end
        }
        return entries
    }
}
