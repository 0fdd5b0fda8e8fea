import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The release hazards no section holds, listed at the top of the draft.
extension PolicyDraft.Builder {
    /// The release hazards the audit reports whatever the policy says (a permission granted
    /// to every origin, private API, scripts built from what the page chose): not policy
    /// values, so a note at the top with their lines, to fix or to suppress with a reason.
    mutating func otherHazards(into document: inout DraftDocument) {
        let rules: [any AuditRule.Type] = [PermissionGrantedToAnyOriginRule.self, PrivateKeyValueCodingRule.self, FileAccessKVCRule.self,
                                           PrivateWebKitAPIRule.self, UIWebViewRule.self, ScriptInterpolationRule.self, HTMLFileBaseURLRule.self]
        var found: [String] = []
        for rule in rules {
            var context = AuditRuleContext(rule: rule.description, severity: rule.description.defaultSeverity)
            rule.init().check(subject, &context)
            // A file: base URL is a warning with no policy and an error under the draft's
            // file-access: none, so it is listed whatever its severity here.
            let listed = rule == HTMLFileBaseURLRule.self ? context.diagnostics : context.diagnostics.filter { $0.severity == .error }
            found += listed.map { "\($0.location.path):\($0.location.start.line) [\($0.ruleID)]" }
        }
        guard !found.isEmpty else { return }
        let shown = found.count > 10 ? found.prefix(9).joined(separator: ", ") + " and \(found.count - 9) more" : SchemeScope.list(found)
        document.header.append(decide("release hazards no policy makes safe, which the audit reports whatever this file says: \(shown). "
            + "Fix each, or suppress it at its line with the reason (// webpolicy:disable-next-line RULE -- why)"))
    }
}
