import ArgumentParser
import Foundation
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start using webpolicy in this repository.",
        discussion: """
        Writes policies/app.yaml (a starter policy), policies/app.trace (its expectations), \
        .webpolicy.yml and .pre-commit-config.yaml. With --swiftpm TARGET, instead \
        Sources/TARGET/app.webpolicy.yaml and Sources/TARGET/app.trace in the package at \
        --directory, compiled by WebPolicyBuildPlugin, and prints the lines to add to \
        Package.swift. With --from-app PATH, a first policy drafted from what the app at PATH \
        does (its handlers, scheme handlers, settings, ATS exceptions, App-Bound Domains and \
        queried schemes, read as `webpolicy audit` reads them), written to --output (default \
        policies/app.yaml), with what the team must decide on standard error. Nothing is \
        written when any of them exists, unless --force. Exit codes: 0 written, 2 a file exists \
        or cannot be written.
        """
    )

    @Option(help: "The folder to write into (default: the working folder).", completion: .directory)
    var directory: String = "."

    @Flag(help: "Replace files that exist.")
    var force = false

    @Option(help: "Write a starter policy into this SwiftPM target instead (see docs/swiftpm.md).")
    var swiftpm: String?

    @Option(help: "Draft the policy from this app's code, Info.plists and storyboards.", completion: .directory)
    var fromApp: String?

    @Option(help: "With --from-app, where to write the draft (default: policies/app.yaml in --directory).", completion: .file(extensions: ["yaml"]))
    var output: String?

    @Flag(help: "With --from-app, read test targets too.")
    var includeTests = false

    func run() throws {
        if let fromApp {
            let auditor = Auditor(configuration: LintConfiguration(), options: Auditor.Options(includeTests: includeTests), swiftReader: Audit.swiftReader)
            let reading = try auditor.read(paths: [fromApp])
            let name = URL(fileURLWithPath: fromApp).standardizedFileURL.lastPathComponent
            let draft = PolicyDraft(inventory: reading.inventory, name: name.isEmpty || name == "/" ? "app" : name)
            let path = output ?? (directory as NSString).appendingPathComponent("policies/app.yaml")
            if FileManager.default.fileExists(atPath: path), !force {
                throw InputError("\(path) exists; pass --force to replace it, or --output to write elsewhere")
            }
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try ArtefactWriter.writeFile(draft.yaml, to: path)
            print("wrote \(path)")
            for warning in draft.warnings { StandardError.write("webpolicy: decide: \(warning)\n") }
            print("next: webpolicy lint \(path) && webpolicy audit --policy \(path) \(fromApp)")
            return
        }
        if let swiftpm {
            let (written, instructions) = try Scaffold.writeSwiftPM(target: swiftpm, package: directory, force: force)
            for path in written { print("wrote \(path)") }
            print("\n" + instructions)
            return
        }
        let written = try Scaffold.write(to: directory, force: force)
        for path in written { print("wrote \(path)") }
        print("next: webpolicy lint policies && webpolicy simulate policies; pre-commit install")
    }
}
