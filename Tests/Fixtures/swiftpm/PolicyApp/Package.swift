// swift-tools-version:6.1
// A package as an app team writes it, using both webpolicy plugins, with webpolicy's default
// traits (its build audits the target's Swift). ci/checks/swiftpm_plugins.sh copies it, points
// the dependency at the checkout, builds it in the checkout's build folder and breaks it.
import PackageDescription

let package = Package(
    name: "PolicyApp",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "../webpolicy")],
    targets: [
        .executableTarget(
            name: "PolicyApp",
            dependencies: [.product(name: "WebPolicyRuntime", package: "webpolicy")],
            exclude: ["app.trace"],
            plugins: [.plugin(name: "WebPolicyBuildPlugin", package: "webpolicy")]
        ),
    ]
)
