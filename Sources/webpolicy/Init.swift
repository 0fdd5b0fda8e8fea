import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start using webpolicy in this repository.",
        discussion: """
        Writes policies/app.yaml (a starter policy), policies/app.trace (its expectations), \
        .webpolicy.yml and .pre-commit-config.yaml. Nothing is written when any of them exists, \
        unless --force. Exit codes: 0 written, 2 a file exists or cannot be written.
        """
    )

    @Option(help: "The folder to write into (default: the working folder).", completion: .directory)
    var directory: String = "."

    @Flag(help: "Replace files that exist.")
    var force = false

    func run() throws {
        let written = try Scaffold.write(to: directory, force: force)
        for path in written { print("wrote \(path)") }
        print("next: webpolicy lint policies && webpolicy simulate policies; pre-commit install")
    }
}
