// swift-tools-version:6.1
// A package as an app team writes it, using both webpolicy plugins. ci/checks/swiftpm_plugins.sh
// copies it next to a link named `webpolicy` to the checkout, builds it and breaks it.
import PackageDescription

let package = Package(
    name: "PolicyApp",
    platforms: [.macOS(.v13)],
    // Without the SwiftAudit trait: no swift-syntax to build (minutes). The Swift audit in the
    // build is checked with the prebuilt binary (ci/checks/release_bundle.sh).
    dependencies: [.package(path: "../webpolicy", traits: [])],
    targets: [
        .executableTarget(
            name: "PolicyApp",
            dependencies: [.product(name: "WebPolicyRuntime", package: "webpolicy")],
            exclude: ["app.trace"],
            plugins: [.plugin(name: "WebPolicyBuildPlugin", package: "webpolicy")]
        ),
    ]
)
