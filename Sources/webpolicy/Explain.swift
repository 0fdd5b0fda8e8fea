import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain one request: every step of the pipeline, for 'why is this blocked?'.",
        discussion: """
        Shows the load as WebKit sees it (its page, first- or third-party), each content rule \
        that matched with the parts of its trigger that held, what ignore-previous-rules \
        cancelled, the scheme gate, interception and cookies, then the verdict and why — the \
        same decision simulate and the runtime make (docs/semantics.md). Exit codes: 0 \
        explained (whatever the verdict), 1 the policy has lint errors, 2 input error.
        """
    )

    @Argument(help: "The request's URL.")
    var url: String

    @Option(help: "The policy.", completion: .file(extensions: ["yaml", "yml"]))
    var policy: String

    @Option(help: "The request type, in the trace format's words: page, top-document, child-document, image, script, style-sheet, font, fetch, websocket, ping, popup, other …")
    var type: String = "page"

    @Option(help: "The page the request belongs to; for a navigation (page, top-document), the page it leaves.")
    var top: String?

    @Option(help: "The HTTP method (default GET).")
    var method: String?

    @Option(help: "How a navigation started, as a trace's by=: link (default), script, redirect, form, back-forward, app (default for a view's first page).")
    var by: NavigationInitiator?

    @Option(help: "A Public Suffix List file instead of the bundled snapshot.", completion: .file())
    var publicSuffixList: String?

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        let (lint, loaded) = try Linter(configuration: configuration.load()).lintLoading(path: policy)
        let report = diagnostics.applied(to: lint)
        if report.count(.error) > 0 {
            diagnostics.showOnStandardError(report)
            throw ExitCode(ExitStatus.findings)
        }
        guard let loaded else { throw InputError("\(policy) cannot be loaded") }
        let suffixes: PublicSuffixList
        do throws(PublicSuffixList.LoadError) {
            if let publicSuffixList { suffixes = try PublicSuffixList(contentsOf: publicSuffixList) } else { suffixes = try PublicSuffixList.bundled() }
        } catch {
            throw InputError(error.description)
        }
        let explanation = try Explainer(policy: loaded, publicSuffixList: suffixes).explain(url: url, type: type, top: top, method: method, by: by)
        print(explanation.text, terminator: "")
    }
}

extension NavigationInitiator: ExpressibleByArgument {}
