/// webpolicy's version, written here and nowhere else: `--version`, SARIF's `tool.driver.version`,
/// what `init --swiftpm` prints and the release script's tag (`v` + this) all read it, and a test
/// holds the pins in the docs to it.
public enum WebPolicyVersion {
    /// Bumped with each release.
    public static let current = "0.1.0"

    /// Where webpolicy is published: the docs' and `init`'s dependency lines, the release's
    /// download URLs. The plugins-only package is published beside it, as `-plugins`.
    public static let repository = "https://github.com/webpolicy/webpolicy"

    /// The tag a release of this version carries: what pre-commit's `rev:` names.
    public static var tag: String { "v" + current }

    /// `--version`: the version and the commit it was built from (`commit` as Package.swift
    /// recorded it; empty when the sources were not a git checkout).
    public static func description(commit: String) -> String {
        if commit.isEmpty { return "\(current) (built outside a git checkout: no commit recorded)" }
        if commit.hasSuffix("-dirty") {
            return "\(current) (commit \(commit.dropLast("-dirty".count)), with uncommitted changes)"
        }
        return "\(current) (commit \(commit))"
    }
}

extension WebPolicyVersion {
    /// A rule's section of docs/rules.md, at this version's tag: SARIF's `helpUri`, the
    /// Markdown summary's links.
    public static func documentation(ofRule id: String) -> String {
        "\(repository)/blob/\(tag)/docs/rules.md#\(id)"
    }
}
