import Foundation

// What the build plugin generated and compiled into the bundle: the app would hand the folder
// to WebPolicyRuntime (`RuntimePolicy(compiledDirectory:)`); this prints what is in it.
for policy in WebPolicies.all {
    for list in policy.lists {
        let file = policy.directory.appendingPathComponent(list.file)
        let rules = (try? JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [Any])?.count ?? -1
        print("\(policy.policyName): \(list.identifier) \(list.file) \(rules) rules")
    }
}
