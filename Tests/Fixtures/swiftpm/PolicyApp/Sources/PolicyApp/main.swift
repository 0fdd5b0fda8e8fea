import Foundation
import WebPolicyRuntime

// The compiled policy from the target's resources, through the generated accessor.
let compiled = WebPolicies.app
let policy = try RuntimePolicy(compiledDirectory: compiled.directory)
print("policy \(compiled.policyName): lists \(compiled.lists.map(\.identifier).joined(separator: ", "))")
for (url, type) in [("https://tracker.example.net/t.js", "script"), ("https://app.example.com/", "page"), ("http://legacy.example.com/banner.png", "image")] {
    let decision = policy.evaluate(RuntimeRequest(url: url, type: type, mainDocumentURL: type == "page" ? nil : "https://app.example.com/"))
    print("\(decision.verdict.rawValue) \(type) \(url): \(decision.reason)")
}
