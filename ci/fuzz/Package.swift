// swift-tools-version:6.1
// Fuzz targets for every input webpolicy reads (docs/fuzzing.md). Built apart from the main
// package because each is an executable whose `main` comes from libFuzzer:
//
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//
// (ci/fuzz/build.sh does that; ci/fuzz/run.sh runs them.)
import PackageDescription

let targets = ["FuzzURLFilter", "FuzzPolicy", "FuzzLintFix", "FuzzTrace", "FuzzHAR", "FuzzContentBlockerList", "FuzzURL", "FuzzManifest", "FuzzEngineImage", "FuzzAppFiles", "FuzzLSP"]

let package = Package(
    name: "webpolicy-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "webpolicy", path: "../..")],
    targets: [
        .target(name: "FuzzCommon", dependencies: [
            .product(name: "WebPolicyKit", package: "webpolicy"),
            .product(name: "WebPolicyRuntime", package: "webpolicy"),
        ]),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzCommon",
            .product(name: "WebPolicyKit", package: "webpolicy"),
            .product(name: "WebPolicyRuntime", package: "webpolicy"),
            .product(name: "URLFilter", package: "webpolicy"),
            .product(name: "WebPolicyAudit", package: "webpolicy"),
            .product(name: "WebPolicyLSP", package: "webpolicy"),
        ])
    }
)
