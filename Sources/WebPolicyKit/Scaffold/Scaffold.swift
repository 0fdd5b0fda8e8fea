import Foundation
import WebPolicyRuntime

/// What `webpolicy init` writes into a repository: a starter policy that exercises each
/// section, a trace with an expectation per rule, a `.webpolicy.yml`, and a
/// `.pre-commit-config.yaml` that runs the installed webpolicy. Every file lints and simulates
/// clean as written (a test runs them).
public enum Scaffold {
    public struct File: Sendable {
        public var path: String
        public var contents: String
    }

    public static let files: [File] = [
        File(path: "policies/app.yaml", contents: policy),
        File(path: "policies/app.trace", contents: trace),
        // Beside the policies, so the policy's first line points to it and editors complete.
        File(path: "policies/webpolicy.schema.json", contents: schema),
        File(path: ".webpolicy.yml", contents: configuration),
        File(path: ".pre-commit-config.yaml", contents: preCommit),
    ]

    /// Writes the files under `directory`. Nothing is written when any of them exists, unless
    /// `force` — then they are replaced, each atomically. Returns the paths written.
    public static func write(to directory: String, force: Bool) throws(InputError) -> [String] {
        let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: directory + "/" + $0) }
        if !existing.isEmpty && !force {
            throw InputError("\(existing.joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); nothing was written (--force replaces them)")
        }
        for file in files {
            let path = directory + "/" + file.path
            let folder = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw InputError("cannot create \(folder): \(error.localizedDescription)")
            }
            try ArtefactWriter.writeFile(file.contents, to: path)
        }
        return files.map(\.path)
    }

    /// `webpolicy init --swiftpm TARGET`: a starter policy and trace in the target's folder of
    /// the package at `package`, compiled by `WebPolicyBuildPlugin`. Returns the paths written
    /// and what to add to `Package.swift`.
    public static func writeSwiftPM(target: String, package: String, force: Bool) throws(InputError) -> (written: [String], instructions: String) {
        let folder = "Sources/" + target
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: package + "/" + folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError("\(package)/\(folder) is not a folder: name a target of the package in \(package) (for a target with its own path, pass --directory that folder's package)")
        }
        let files = [
            File(path: folder + "/app.webpolicy.yaml", contents: swiftPMPolicy),
            File(path: folder + "/app.trace", contents: trace.replacingOccurrences(of: "policy: app.yaml", with: "policy: app.webpolicy.yaml")),
        ]
        let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: package + "/" + $0) }
        if !existing.isEmpty && !force {
            throw InputError("\(existing.joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); nothing was written (--force replaces them)")
        }
        for file in files { try ArtefactWriter.writeFile(file.contents, to: package + "/" + file.path) }
        let instructions = """
        Add to Package.swift (swift-tools-version 6.1 or later):

            // webpolicy's products need at least these; raise them if the package targets more.
            platforms: [.macOS(.v13), .iOS(.v15)],
            dependencies: [
                .package(url: "\(WebPolicyVersion.repository)", from: "\(WebPolicyVersion.current)"),
            ],
            // the target \(target):
                dependencies: [.product(name: "WebPolicyRuntime", package: "webpolicy")],
                exclude: ["app.trace"],
                plugins: [.plugin(name: "WebPolicyBuildPlugin", package: "webpolicy")]

        Then `swift build` lints and compiles app.webpolicy.yaml into the target's resources, and
        the code loads it with: try RuntimePolicy(compiledDirectory: WebPolicies.app.directory)
        Check the trace with: swift package webpolicy simulate --target \(target)
        """
        return (files.map(\.path), instructions)
    }

    /// The starter policy, for a SwiftPM target.
    static var swiftPMPolicy: String {
        policy.replacingOccurrences(of: "# yaml-language-server: $schema=webpolicy.schema.json\n", with: "").replacingOccurrences(of: """
        # The format is in webpolicy's docs/policy-format.md; `webpolicy rules` lists the checks. Run
        #   webpolicy lint policies          and          webpolicy simulate policies
        """, with: """
        # The format is in webpolicy's docs/policy-format.md; `webpolicy rules` lists the checks.
        # `swift build` lints and compiles it (WebPolicyBuildPlugin): WebPolicies.app.directory.
        """)
    }

    /// The JSON Schema of the policy format, for editors (the YAML language server reads the
    /// policy's first line). `webpolicy schema` prints it again after an upgrade.
    public static var schema: String { PolicySchema.text }

    static let policy = """
    # yaml-language-server: $schema=webpolicy.schema.json
    # The web-view policy of this app: what its WKWebViews may load, hand on, inject and serve.
    # The format is in webpolicy's docs/policy-format.md; `webpolicy rules` lists the checks. Run
    #   webpolicy lint policies          and          webpolicy simulate policies
    webpolicy: 1
    name: app
    description: Starter policy written by `webpolicy init`; replace the example hosts with yours.
    target:
      ios: "16.0"
      distribution: app-store

    # Plain-http hosts the web views may load: each becomes an ATS exception, and App Review
    # asks why, so each says why.
    http-allowlist:
      - host: legacy.example.com
        reason: The legacy help pages are served over plain http only.

    # Schemes handed to the system (mail, phone) when a page links to them.
    scheme-allowlist:
      - scheme: mailto
      - scheme: tel

    # WebKit content rules, compiled to a content-blocker list by `webpolicy compile`.
    content-rules:
      - id: block-trackers
        description: Third-party tracking scripts never load.
        action: block
        hosts: [tracker.example.net]
        resource-type: [script]

    # Lists the team did not write (EasyList, a vendor's): WebKit content-blocker JSON files
    # beside this policy, checked and shipped as they are. Uncomment to add one:
    # content-rule-lists:
    #   - id: easylist
    #     path: lists/easylist.json

    # Cookies the app injects so the web app sees the native login.
    cookies:
      - name: session
        value: ${SESSION_TOKEN}
        domain: app.example.com
        secure: true
        http-only: true
        same-site: lax

    # Requests the app answers itself (a WKURLSchemeHandler): its offline help pages, from
    # a folder of the app bundle.
    interception:
      - id: offline-help
        scheme: example-app-offline
        serve: Offline/help

    # Where the web views may go: the app's own pages. A link elsewhere opens in Safari;
    # nothing else — a script, a redirect, a form — takes the user out of the app.
    navigation:
      pages:
        - host: app.example.com
      otherwise: open-externally
      new-windows: same-view

    # App-Bound Domains (iOS 14): the hosts the Info.plist lists under WKAppBoundDomains. With
    # limit-navigations the views go nowhere else, and WebKit keeps the bridges available.
    # Uncomment when the app opts in:
    # app-bound-domains:
    #   domains: [app.example.com]
    #   limit-navigations: true

    # Who may call the app's native code (window.webkit.messageHandlers.AppInterface): the
    # main frame of the app's own pages, over https.
    bridges:
      - name: AppInterface
        origins: [app.example.com]
        description: The web app's calls into the app (login, share).

    # The web views' configuration, set before a view exists: no Web Inspector in the App
    # Store build, and no file:// pages.
    webview:
      inspectable: false
      file-access: none

    # A server the user chooses (a self-hosted instance): named by role, bound by the app at
    # run time (policy.bind("server", to: url)); write "${server}" in pages, bridges and
    # cookies. Uncomment when the app has one:
    # runtime-hosts:
    #   server:
    #     description: The server the user signed in to.
    #     schemes: [https, http]
    #     http: local-network

    """

    static let trace = """
    # Requests and the verdicts they must get (docs/trace-format.md); `webpolicy simulate
    # --record` fills in expect= for new lines.
    policy: app.yaml

    page https://app.example.com/ expect=allow cookies=session
    script https://tracker.example.net/t.js expect=block
    image https://cdn.example.net/logo.png expect=allow cookies=none
    image http://legacy.example.com/banner.png expect=allow
    image http://insecure.example.org/banner.png expect=block
    document mailto:help@example.com expect=allow
    document whatsapp://send?text=hi expect=block
    page https://news.example.org/ by=link expect=allow handoff=yes
    page https://phish.example.org/ by=script expect=block
    page example-app-offline://help/index.html expect=intercept
    message https://app.example.com/ handler=AppInterface expect=allow
    message https://news.example.org/ handler=AppInterface expect=block

    """

    static let configuration = """
    # webpolicy settings. Rule severities (`webpolicy rules` lists the ids):
    #   rules:
    #     http-allowlist-reason: error
    # and folders to skip when linting a folder:
    #   exclude:
    #     - generated/**
    rules: {}

    """

    static let preCommit = """
    # pre-commit (https://pre-commit.com) runs webpolicy before each commit; enable it with
    # `pre-commit install`. These hooks use the webpolicy on PATH (webpolicy's README, Install);
    # to let pre-commit build it instead, use webpolicy's repository and its hooks
    # webpolicy-lint and webpolicy-simulate.
    repos:
      - repo: local
        hooks:
          - id: webpolicy-lint
            name: webpolicy lint
            entry: webpolicy lint
            language: system
            files: (^|/)policies/.*\\.ya?ml$
            # Warnings do not fail a commit; shown anyway.
            verbose: true
          - id: webpolicy-simulate
            name: webpolicy simulate
            entry: webpolicy simulate
            language: system
            files: (^|/)policies/.*\\.(ya?ml|trace)$
            pass_filenames: false
            args: [policies]

    """
}
