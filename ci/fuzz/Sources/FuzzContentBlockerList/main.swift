import FuzzCommon
import WebPolicyKit
import WebPolicyRuntime

// WebKit's list parser (the port) and `webpolicy import`: every finding lies inside the list;
// a list import accepts becomes a policy whose rules lower back to a list that imports to the
// same policy (import and lowering are inverse on what WebKit keeps).


func fuzzContentBlockerList(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let file = SourceFile(path: "list.json", text: text(start, count))
    let imported = ContentBlockerImporter.importList(file)
    Invariant.checkDiagnostics(imported.report.diagnostics, in: file)
    guard let policyText = imported.policyText else { return 0 }

    let loaded = PolicyLoader().load(text: policyText, path: "imported.yaml")
    guard let policy = loaded.policy, loaded.diagnostics.allSatisfy({ $0.severity != .error }) else {
        Invariant.check(false, "the imported policy does not load:\n\(policyText)\n\(loaded.diagnostics.map(\.message))")
        return 0
    }
    let lowered = ContentBlockerLowering.lower(policy).map(\.json)
    Invariant.check(lowered.count == imported.importedRules, "\(imported.importedRules) rules imported, \(lowered.count) lowered")
    let list = SourceFile(path: "list.json", text: JSONValue.array(lowered).serialized())
    let again = ContentBlockerImporter.importList(list)
    Invariant.check(again.policyText == policyText, "the lowered list imports differently:\n\(policyText)\n---\n\(again.policyText ?? "refused: \(again.report.diagnostics.map(\.message))")")
    return 0
}

Fuzzer.run { start, count in fuzzContentBlockerList(start, count) }
