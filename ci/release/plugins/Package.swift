// swift-tools-version:6.1
// webpolicy's SwiftPM plugins, running a prebuilt webpolicy instead of building it (and its
// Yams, argument parser and swift-syntax) in every app that uses them. The plugins are the main
// package's own (Plugins/ links to them); only where `webpolicy` comes from differs.
//
// In this repository the binary target is the bundle ci/release/build.sh wrote, copied here;
// the release script publishes a copy whose binary target names the release's URL and checksum.
import PackageDescription

let package = Package(
    name: "webpolicy-plugins",
    products: [
        .plugin(name: "WebPolicyBuildPlugin", targets: ["WebPolicyBuildPlugin"]),
        .plugin(name: "WebPolicyCommandPlugin", targets: ["WebPolicyCommandPlugin"]),
        .plugin(name: "WebPolicyFixPlugin", targets: ["WebPolicyFixPlugin"]),
        .plugin(name: "WebPolicyInitPlugin", targets: ["WebPolicyInitPlugin"]),
    ],
    targets: [
        .binaryTarget(name: "webpolicy", path: "webpolicy.artifactbundle.zip"),
        .plugin(name: "WebPolicyBuildPlugin", capability: .buildTool(), dependencies: ["webpolicy"]),
        .plugin(
            name: "WebPolicyCommandPlugin",
            capability: .command(intent: .custom(verb: "webpolicy", description: "Lint or simulate the webpolicy policies and traces of the package's targets")),
            dependencies: ["webpolicy"]
        ),
        .plugin(
            name: "WebPolicyFixPlugin",
            capability: .command(
                intent: .custom(verb: "webpolicy-fix", description: "Apply webpolicy lint's certain fixes to the package's policies"),
                permissions: [.writeToPackageDirectory(reason: "'webpolicy lint --fix' rewrites the targets' *.webpolicy.yaml policies in place.")]
            ),
            dependencies: ["webpolicy"]
        ),
        .plugin(
            name: "WebPolicyInitPlugin",
            capability: .command(
                intent: .custom(verb: "webpolicy-init", description: "Write a starter webpolicy policy and trace into a target"),
                permissions: [.writeToPackageDirectory(reason: "'webpolicy init' writes a starter policy and trace into the target's folder.")]
            ),
            dependencies: ["webpolicy"]
        ),
    ]
)
