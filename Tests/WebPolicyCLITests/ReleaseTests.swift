import Foundation
import Testing
import TestSupport
import WebPolicyKit

/// What a release is made of, checked without building one (CI packages one for real:
/// ci/checks/release_bundle.sh): the version in one place and the pins that name it, the
/// commit `--version` names, the hooks' two variants, and the artifact bundle the release
/// workflow assembles from three platforms' tarballs.
@Suite("Release")
struct ReleaseTests {
    @Test func versionNamesTheCommitItWasBuiltFrom() throws {
        let result = try CommandRunner.run(["--version"])
        #expect(result.status == 0)
        let pattern = #"^\#(NSRegularExpression.escapedPattern(for: WebPolicyVersion.current)) \((commit [0-9a-f]{40}(, with uncommitted changes)?|built outside a git checkout: no commit recorded)\)\n$"#
        #expect(result.stdout.range(of: pattern, options: .regularExpression) != nil, "\(result.stdout)")
        #expect(WebPolicyVersion.description(commit: "") == "\(WebPolicyVersion.current) (built outside a git checkout: no commit recorded)")
        #expect(WebPolicyVersion.description(commit: "ab12-dirty") == "\(WebPolicyVersion.current) (commit ab12, with uncommitted changes)")
        #expect(WebPolicyVersion.tag == "v" + WebPolicyVersion.current)
    }

    /// Every dependency line and pre-commit pin in the docs names the repository and the version
    /// from WebPolicyVersion, and so does `init --swiftpm`: one place to bump.
    @Test func theDocsPinTheVersionFromOnePlace() throws {
        let root = CommandRunner.repositoryRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 } + ["README.md"]
        var packageLines = 0, revisions = 0
        for doc in docs {
            let text = try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8)
            #expect(!text.contains("<your-org>") && !text.contains("<you>/webpolicy"), "\(doc) still has a placeholder for the repository")
            for line in text.split(separator: "\n") {
                if line.contains(".package(url:"), line.contains("webpolicy") {
                    packageLines += 1
                    let pinned = line.contains("\"\(WebPolicyVersion.repository)\", from: \"\(WebPolicyVersion.current)\"")
                        || line.contains("\"\(WebPolicyVersion.repository)-plugins\", from: \"\(WebPolicyVersion.current)\"")
                    #expect(pinned, "\(doc): \(line)")
                }
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("rev: v") {
                    revisions += 1
                    #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("rev: \(WebPolicyVersion.tag)"), "\(doc): \(line)")
                }
            }
        }
        #expect(packageLines >= 3 && revisions >= 1)
        let folder = try TemporaryFolder.make("release-init")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/Shop"), withIntermediateDirectories: true)
        let printed = try CommandRunner.run(["init", "--swiftpm", "Shop"], in: folder)
        #expect(printed.status == 0)
        #expect(printed.stdout.contains(".package(url: \"\(WebPolicyVersion.repository)\", from: \"\(WebPolicyVersion.current)\")"), "\(printed.stdout)")
    }

    /// Each hook comes as `language: swift` (built by pre-commit) and `-system` (the installed
    /// binary), the two alike in everything else.
    @Test func everyHookHasASystemVariant() throws {
        let text = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        var hooks: [String: [String: String]] = [:]
        var current: String?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("- id: ") {
                current = String(line.dropFirst(6))
                hooks[current!] = [:]
            } else if let current, let colon = line.firstIndex(of: ":") {
                let key = line[..<colon].trimmingCharacters(in: .whitespaces)
                hooks[current]![key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let built = hooks.filter { $0.value["language"] == "swift" }
        #expect(built.keys.sorted() == ["webpolicy-audit", "webpolicy-lint", "webpolicy-simulate"])
        for (id, hook) in built {
            let system = try #require(hooks[id + "-system"], "\(id) has no -system variant")
            #expect(system["language"] == "system")
            for key in ["entry", "files", "types", "pass_filenames", "args"] {
                #expect(system[key] == hook[key], "\(id)-system's \(key)")
            }
        }
    }

    /// ci/release/artifact_bundle.py, as the release workflow runs it on the three platforms'
    /// tarballs: one SE-0305 variant each (the universal macOS binary under both of its
    /// triples), the executable bit kept through the zip, and a tarball of another version
    /// refused.
    @Test func theArtifactBundleHasAVariantPerPlatform() throws {
        let folder = try TemporaryFolder.make("release-bundle")
        let version = WebPolicyVersion.current
        func tarball(_ version: String, _ platform: String) throws -> String {
            let name = "webpolicy-\(version)-\(platform)"
            let bin = folder.appendingPathComponent("stage/\(name)/bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let binary = bin.appendingPathComponent("webpolicy")
            try "#!/bin/sh\necho '\(version) (commit \(String(repeating: "a", count: 40)))'\n".write(to: binary, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)
            let tarball = folder.appendingPathComponent(name + ".tar.gz").path
            let tar = try CommandRunner.runProgram("/bin/tar", ["-czf", tarball, "-C", folder.appendingPathComponent("stage").path, name])
            #expect(tar.status == 0, "\(tar.stderr)")
            return tarball
        }
        let tarballs = try ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "universal-apple-macosx"].map { try tarball(version, $0) }
        let script = CommandRunner.repositoryRoot.appendingPathComponent("ci/release/artifact_bundle.py").path
        let zip = folder.appendingPathComponent("webpolicy.artifactbundle.zip").path
        let made = try CommandRunner.runProgram("/usr/bin/env", ["python3", script, zip] + tarballs)
        #expect(made.status == 0, "\(made.stderr)")
        let unzipped = folder.appendingPathComponent("unzipped")
        let unzip = try CommandRunner.runProgram("/usr/bin/env", ["unzip", "-q", zip, "-d", unzipped.path])
        #expect(unzip.status == 0, "\(unzip.stderr)")
        let bundle = unzipped.appendingPathComponent("webpolicy.artifactbundle")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("info.json"))) as? [String: Any])
        #expect(info["schemaVersion"] as? String == "1.0")
        let artifacts = try #require(info["artifacts"] as? [String: [String: Any]])
        #expect(artifacts.keys.sorted() == ["webpolicy"])
        let artifact = try #require(artifacts["webpolicy"])
        #expect(artifact["version"] as? String == version)
        #expect(artifact["type"] as? String == "executable")
        let variants = try #require(artifact["variants"] as? [[String: Any]])
        var triples: [String] = []
        for variant in variants {
            #expect(Set(variant.keys) == ["path", "supportedTriples"])
            let path = try #require(variant["path"] as? String)
            #expect(FileManager.default.isExecutableFile(atPath: bundle.appendingPathComponent(path).path), "\(path) is not an executable in the bundle")
            triples += try #require(variant["supportedTriples"] as? [String])
        }
        #expect(triples.sorted() == ["aarch64-unknown-linux-gnu", "arm64-apple-macosx", "x86_64-apple-macosx", "x86_64-unknown-linux-gnu"])

        let other = try tarball("9.9.9", "x86_64-unknown-linux-gnu")
        let mixed = try CommandRunner.runProgram("/usr/bin/env", ["python3", script, folder.appendingPathComponent("mixed.artifactbundle.zip").path, tarballs[1], other])
        #expect(mixed.status != 0 && mixed.stderr.contains("different versions"), "\(mixed.stderr)")
    }

    /// The plugins-only package declares its plugins as the main package does — the same
    /// capabilities, verbs and permissions — and takes their code from the main package's
    /// folders (links), so the two cannot drift apart.
    @Test func thePluginsOnlyPackageDeclaresThePluginsAlike() throws {
        let root = CommandRunner.repositoryRoot
        func declarations(_ manifest: String) throws -> [String: String] {
            let text = try String(contentsOf: root.appendingPathComponent(manifest), encoding: .utf8)
            var found: [String: String] = [:]
            for part in text.components(separatedBy: ".plugin(").dropFirst() {
                guard let name = part.firstMatch(of: /name: "(\w+)"/)?.1, let capability = part.range(of: "capability:"),
                      let end = part.range(of: "dependencies:") else { continue }
                found[String(name)] = part[capability.lowerBound..<end.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            return found
        }
        let main = try declarations("Package.swift")
        let plugins = try declarations("ci/release/plugins/Package.swift")
        #expect(main.count == 4 && main == plugins, "\(main)\n\(plugins)")
        for name in main.keys {
            let link = root.appendingPathComponent("ci/release/plugins/Plugins/\(name)").path
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link)
            #expect(destination == "../../../../Plugins/\(name)", "\(link) -> \(destination)")
        }
    }
}
