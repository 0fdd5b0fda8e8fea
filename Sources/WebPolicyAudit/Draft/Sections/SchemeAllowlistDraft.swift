import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of scheme-allowlist: the schemes the code hands to the system.
extension PolicyDraft.Builder {
    /// The schemes the code itself hands to the system after testing them; never the
    /// schemes it only asks `canOpenURL` about.
    mutating func schemeAllowlist(into document: inout DraftDocument) {
        var opened: Set<String> = []
        var comments: [String] = []
        for fact in subject.facts() {
            guard case .handOff(let handOff) = fact.kind else { continue }
            switch handOff.schemes {
            case .only(let schemes): opened.formUnion(schemes.filter { $0 != "http" && $0 != "https" && PolicyDraft.isScheme($0) })
            case .any, .anyExcept:
                comments.append(decide("\(Self.place(fact.site)) hands \(HandOffAnySchemeRule.phrase(handOff.trigger)) \(handOff.schemes.phrase) to the system: a page can open any app. "
                    + "List here the schemes pages may open, and open only those"))
            case .queried:
                break
            }
        }
        let queried = Set(plists.flatMap { $0.queriesSchemes?.schemes ?? [] }.map { $0.value.lowercased() }).filter { !InfoPlist.isPlaceholder($0) }.subtracting(opened)
        if !queried.isEmpty {
            comments.append("LSApplicationQueriesSchemes asks canOpenURL about \(SchemeScope.list(queried.sorted())): the app's own questions, not schemes web pages may open, so none is listed for that.")
        }
        if opened.isEmpty {
            if !comments.isEmpty { document.add("scheme-allowlist", .array([]), comments: comments) }
            return
        }
        comments.insert("From the schemes the code tests before it hands a page's URL to the system.", at: 0)
        document.add("scheme-allowlist", items: opened.sorted().map { ([], .object([("scheme", .string($0))])) }, comments: comments)
    }
}
