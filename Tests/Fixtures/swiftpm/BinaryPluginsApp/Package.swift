// swift-tools-version:6.1
// An app package that takes webpolicy's plugins from the plugins-only package, which runs a
// prebuilt webpolicy: its build compiles no webpolicy, Yams or swift-syntax.
// ci/checks/release_bundle.sh copies it next to a copy of ci/release/plugins (holding the bundle
// ci/release/build.sh wrote) named `webpolicy-plugins`, builds it and breaks it.
import PackageDescription

let package = Package(
    name: "BinaryPluginsApp",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "../webpolicy-plugins")],
    targets: [
        .executableTarget(
            name: "BinaryPluginsApp",
            exclude: ["app.trace"],
            plugins: [.plugin(name: "WebPolicyBuildPlugin", package: "webpolicy-plugins")]
        ),
    ]
)
