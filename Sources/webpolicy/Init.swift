import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start using webpolicy in this repository.",
        discussion: """
        Writes policies/app.yaml (a starter policy), policies/app.trace (its expectations), \
        .webpolicy.yml and .pre-commit-config.yaml. With --swiftpm TARGET, instead \
        Sources/TARGET/app.webpolicy.yaml and Sources/TARGET/app.trace in the package at \
        --directory, compiled by WebPolicyBuildPlugin, and prints the lines to add to \
        Package.swift. Nothing is written when any of them exists, unless --force. Exit codes: \
        0 written, 2 a file exists or cannot be written.
        """
    )

    @Option(help: "The folder to write into (default: the working folder).", completion: .directory)
    var directory: String = "."

    @Flag(help: "Replace files that exist.")
    var force = false

    @Option(help: "Write a starter policy into this SwiftPM target instead (see docs/swiftpm.md).")
    var swiftpm: String?

    func run() throws {
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
