// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "webpolicy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "webpolicy", targets: ["webpolicy"]),
        .library(name: "WebPolicyKit", targets: ["WebPolicyKit"]),
        .library(name: "URLFilter", targets: ["URLFilter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // WebKit's url-filter regex subset. Stands alone (no imports from the rest, not even
        // Foundation) so it can be tested, fuzzed and benchmarked by itself.
        .target(name: "URLFilter"),
        // The core: loading, the model, lint rules, reporters. Never imports ArgumentParser.
        .target(
            name: "WebPolicyKit",
            dependencies: ["URLFilter", .product(name: "Yams", package: "Yams")],
            // Debian's publicsuffix package (20230209), for third-party decisions in simulate.
            resources: [.copy("Resources/public_suffix_list.dat"), .copy("Resources/webkit_compile.py")]
        ),
        // The command line: a thin wrapper over WebPolicyKit.
        .executableTarget(
            name: "webpolicy",
            dependencies: ["WebPolicyKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Release-build benchmark driver (see docs/benchmarks.md); never run by the tests.
        .executableTarget(name: "webpolicy-bench", dependencies: ["WebPolicyKit", "BenchSupport"]),
        .executableTarget(name: "webpolicy-simulate-bench", dependencies: ["WebPolicyKit", "URLFilter", "BenchSupport"], exclude: ["brave_adblock.py"]),
        // What both benchmarks share: the realistic trace generator, timing whole commands.
        .target(name: "BenchSupport", dependencies: ["URLFilter"]),
        .testTarget(name: "URLFilterTests", dependencies: ["URLFilter"]),
        .testTarget(name: "WebPolicyKitTests", dependencies: ["WebPolicyKit", "URLFilter"]),
        .testTarget(name: "WebPolicyCLITests", dependencies: ["WebPolicyKit"]),
    ]
)
