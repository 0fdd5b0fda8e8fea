// swift-tools-version:6.1
import PackageDescription

// `WEBPOLICY_SWIFT_AUDIT=0` in the environment turns the SwiftAudit trait off by default: for a
// build that cannot pass `--disable-default-traits`, such as pre-commit's `swift build -c
// release` of the hooks (docs/audit.md, "Building without swift-syntax").
let swiftAuditByDefault = Context.environment["WEBPOLICY_SWIFT_AUDIT"] != "0"

// The commit `webpolicy --version` names: ci/release/build.sh passes it in the environment; a
// fresh clone (pre-commit's, a SwiftPM dependency's) has it from git. SwiftPM re-reads the
// manifest when the environment or the manifest changes, not at every commit, so an incremental
// build in a working copy may name an earlier commit (docs/decisions.md, "Versions").
let buildCommit = (Context.environment["WEBPOLICY_BUILD_COMMIT"]
    ?? Context.gitInformation.map { $0.currentCommit + ($0.hasUncommittedChanges ? "-dirty" : "") }
    ?? "").filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }  // a C string literal's content

let package = Package(
    name: "webpolicy",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .executable(name: "webpolicy", targets: ["webpolicy"]),
        .library(name: "WebPolicyRuntime", targets: ["WebPolicyRuntime"]),
        .library(name: "WebPolicyWebKit", targets: ["WebPolicyWebKit"]),
        .library(name: "WebPolicyKit", targets: ["WebPolicyKit"]),
        .library(name: "URLFilter", targets: ["URLFilter"]),
        .library(name: "WebPolicyAudit", targets: ["WebPolicyAudit"]),
        .library(name: "WebPolicyLSP", targets: ["WebPolicyLSP"]),
        .plugin(name: "WebPolicyBuildPlugin", targets: ["WebPolicyBuildPlugin"]),
        .plugin(name: "WebPolicyCommandPlugin", targets: ["WebPolicyCommandPlugin"]),
        .plugin(name: "WebPolicyFixPlugin", targets: ["WebPolicyFixPlugin"]),
        .plugin(name: "WebPolicyInitPlugin", targets: ["WebPolicyInitPlugin"]),
    ],
    // `webpolicy audit` reads Swift with swift-syntax, which costs minutes to build (about two
    // in debug, seven in release on two cores). The trait is on by default; a build that never
    // audits Swift (a CI job that only lints, the SwiftPM plugins in an app that audits
    // elsewhere) turns it off with `--disable-default-traits` or `traits: []`, and then builds
    // no swift-syntax at all (docs/audit.md).
    traits: [
        .trait(name: "SwiftAudit", description: "webpolicy audit reads Swift sources (builds swift-syntax)"),
        .default(enabledTraits: swiftAuditByDefault ? ["SwiftAudit"] : []),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Exactly: its API breaks at every major release. 602 is the first with SwiftIfConfig.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", exact: "602.0.0"),
    ],
    targets: [
        // WebKit's url-filter regex subset. Stands alone (no imports from the rest, not even
        // Foundation) so it can be tested, fuzzed and benchmarked by itself.
        .target(name: "URLFilter"),
        // The decision engine an app links: compiled artefacts in, verdicts out. Foundation at
        // most (no Yams, nothing from lint or the command line); builds for iOS too.
        .target(
            name: "WebPolicyRuntime",
            dependencies: ["URLFilter"]
        ),
        // The runtime wired into WKWebView: rule-list installer, readiness gate, navigation
        // decider, cookies, scheme handlers. The logic is plain Swift behind protocols (tested
        // on Linux with fakes); only `WebKit/` imports WebKit, and is built by the macOS job.
        // Swift 5 language mode: WebKit's concurrency annotations differ between the SDKs it
        // must build with (iOS 15 to 26), and only the macOS job compiles `WebKit/`.
        .target(name: "WebPolicyWebKit", dependencies: ["WebPolicyRuntime"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The tooling: loading policies, lint rules, compile, import, reporters. Never imports
        // ArgumentParser.
        .target(
            name: "WebPolicyKit",
            dependencies: ["URLFilter", "WebPolicyRuntime", .product(name: "Yams", package: "Yams")]
        ),
        // `webpolicy audit`: the app's code, Info.plists and Interface Builder files read into
        // facts, and the checks of those facts against a policy. No swift-syntax here (the
        // Objective-C tokenizer, the plist and storyboard readers are its own), so the fuzz
        // targets and a build without the SwiftAudit trait never compile it.
        .target(name: "WebPolicyAudit", dependencies: ["WebPolicyKit", "WebPolicyRuntime"]),
        // `webpolicy lsp`: the language server, a hand-written protocol layer over Foundation.
        .target(name: "WebPolicyLSP", dependencies: ["URLFilter", "WebPolicyKit", "WebPolicyRuntime", "WebPolicyAudit"]),
        // Swift sources read with swift-syntax into the same facts; only the command line
        // links it, and only with the SwiftAudit trait. Never the runtime products. Its
        // swift-syntax dependencies follow the trait too: `swift build` of this package builds
        // every target, and without the trait the module is empty (each file is `#if
        // SwiftAudit`), so a trait-less build of the whole package (pre-commit's) compiles no
        // swift-syntax.
        .target(
            name: "WebPolicyAuditSwift",
            dependencies: [
                "WebPolicyAudit",
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["SwiftAudit"])),
                .product(name: "SwiftParser", package: "swift-syntax", condition: .when(traits: ["SwiftAudit"])),
                .product(name: "SwiftIfConfig", package: "swift-syntax", condition: .when(traits: ["SwiftAudit"])),
            ]
        ),
        // The commit the command line was built from, for `webpolicy --version`.
        .target(name: "WebPolicyBuildInfo", cSettings: [.define("WEBPOLICY_BUILD_COMMIT", to: "\"\(buildCommit)\"")]),
        // The command line: a thin wrapper over WebPolicyKit and WebPolicyAudit.
        .executableTarget(
            name: "webpolicy",
            dependencies: [
                "WebPolicyKit", "WebPolicyRuntime", "WebPolicyAudit", "WebPolicyLSP", "WebPolicyBuildInfo",
                .target(name: "WebPolicyAuditSwift", condition: .when(traits: ["SwiftAudit"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Policies linted and compiled by `swift build` (docs/swiftpm.md): a build command per
        // target that runs `webpolicy build-resources`.
        .plugin(name: "WebPolicyBuildPlugin", capability: .buildTool(), dependencies: ["webpolicy"]),
        // `swift package webpolicy lint|simulate`: reads only, so it asks for nothing.
        .plugin(
            name: "WebPolicyCommandPlugin",
            capability: .command(intent: .custom(verb: "webpolicy", description: "Lint or simulate the webpolicy policies and traces of the package's targets")),
            dependencies: ["webpolicy"]
        ),
        // What writes asks for the permission, each in a plugin of its own.
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
        // Release-build benchmark driver (see docs/benchmarks.md); never run by the tests.
        .executableTarget(name: "webpolicy-bench", dependencies: ["WebPolicyKit", "WebPolicyRuntime", "BenchSupport"]),
        .executableTarget(name: "webpolicy-simulate-bench", dependencies: ["WebPolicyKit", "WebPolicyRuntime", "URLFilter", "BenchSupport"], exclude: ["brave_adblock.py", "ada_urls.py"]),
        // The app's navigation and UI delegates, driven by the real-WebKit conformance lane
        // (ci/webkit-conformance/navigation_conformance.py) over standard input; never shipped.
        .executableTarget(name: "webpolicy-app-probe", dependencies: ["WebPolicyWebKit", "WebPolicyRuntime"]),
        // Bindings changed while decisions run, built with the thread sanitizer by .ci/run; never shipped.
        .executableTarget(name: "webpolicy-race-check", dependencies: ["WebPolicyRuntime"]),
        // What both benchmarks share: the realistic trace generator, timing whole commands.
        .target(name: "BenchSupport", dependencies: ["URLFilter"]),
        // Temporary folders that the tests remove at exit.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "URLFilterTests", dependencies: ["URLFilter"]),
        // The runtime through its public API only, as an app links it.
        .testTarget(name: "WebPolicyRuntimeTests", dependencies: ["WebPolicyRuntime", "TestSupport"]),
        .testTarget(name: "WebPolicyWebKitTests", dependencies: ["WebPolicyWebKit", "WebPolicyRuntime", "TestSupport"]),
        .testTarget(name: "WebPolicyKitTests", dependencies: ["WebPolicyKit", "WebPolicyRuntime", "URLFilter", "TestSupport"]),
        .testTarget(name: "WebPolicyAuditTests", dependencies: ["WebPolicyAudit", "WebPolicyAuditSwift", "WebPolicyKit", "WebPolicyRuntime", "TestSupport"]),
        .testTarget(name: "WebPolicyCLITests", dependencies: ["WebPolicyKit", "WebPolicyRuntime", "TestSupport"]),
        .testTarget(name: "WebPolicyLSPTests", dependencies: ["WebPolicyLSP", "WebPolicyKit", "WebPolicyRuntime", "TestSupport"]),
    ]
)

// `WEBPOLICY_UNOPTIMISED=1` builds this package's own modules without optimisation, even in a
// release build: pre-commit's `swift build -c release` of the hooks then takes about a third of
// the CPU time, and a hook's lint or simulate of a repository's policies stays in milliseconds
// (docs/ci.md, "A faster first build"). Only where webpolicy is the root package (pre-commit's
// clone): SwiftPM refuses unsafe flags in a dependency.
if Context.environment["WEBPOLICY_UNOPTIMISED"] == "1" {
    for target in package.targets where target.type != .plugin {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
    }
}
