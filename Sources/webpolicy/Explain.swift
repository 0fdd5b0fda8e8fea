import ArgumentParser
import Foundation
import WebPolicyKit
import WebPolicyRuntime

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
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

    @Option(help: "Output format: text, or html (one page: the verdict, then each step).")
    var format: ExplainFormat = .text

    @Option(help: "The request type, in the trace format's words: page, top-document, child-document, image, script, style-sheet, font, fetch, websocket, ping, popup, other …; message for a script message (with --handler).")
    var type: String = "page"

    @Option(help: "The page the request belongs to; for a navigation (page, top-document), the page it leaves.")
    var top: String?

    @Option(help: "The HTTP method (default GET).")
    var method: String?

    @Option(help: "How a navigation started, as a trace's by=: link (default), script, redirect, form, back-forward, app (default for a view's first page).")
    var by: NavigationInitiator?

    @Option(help: "For --type message: the handler it is posted to (window.webkit.messageHandlers.<name>); the URL is the sending frame's document.")
    var handler: String?

    @Option(help: "The frame: for a load, the URL of the iframe's document that makes it (a trace's frame=; default: the main frame); for --type message, main (default) or child, the frame that posts it.")
    var frame: String?

    @Option(help: "For --type message: the content world it is posted from: page (default), client or a name of the app's.")
    var world: String = "page"

    @Option(help: "A Public Suffix List file instead of the bundled snapshot.", completion: .file())
    var publicSuffixList: String?

    @Option(name: .customLong("bind"), help: ArgumentHelp("Bind a runtime-hosts role first, as a trace's bind line does (repeat for several roles).", valueName: "ROLE=URL"), transform: RoleBindingArgument.parse)
    var bindings: [BindRequest] = []

    @OptionGroup var configuration: ConfigurationOptions

    @OptionGroup var cache: CacheOptions

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        let (lint, loaded) = try Linter(configuration: configuration.load()).lintLoading(path: policy)
        let report = diagnostics.applied(to: lint)
        if report.count(.error) > 0 {
            diagnostics.showOnStandardError(report)
            throw ExitCode(ExitStatus.findings)
        }
        guard let loaded else { throw InputError("\(policy) cannot be loaded") }
        var suffixes = PublicSuffixList.bundled()
        if let publicSuffixList {
            do throws(PublicSuffixList.LoadError) {
                suffixes = try PublicSuffixList(contentsOf: publicSuffixList)
            } catch {
                throw InputError(error.description)
            }
        }
        var explainer = Explainer(policy: loaded, publicSuffixList: suffixes, engineCache: cache.cache)
        for binding in bindings { try explainer.bind(binding) }
        let explanation: (text: String, verdict: Verdict)
        if type == "message" {
            guard let handler else { throw InputError("--type message needs --handler NAME: the bridge the message is posted to") }
            guard let messageFrame = MessageFrame(rawValue: frame ?? "main") else {
                throw InputError("for a message, --frame is main or child, not '\(frame ?? "")'")
            }
            explanation = try explainer.explainMessage(url: url, handler: handler, frame: messageFrame, world: ContentWorldName(world))
        } else {
            if handler != nil { throw InputError("--handler goes with --type message") }
            let frameURL = frame == "main" ? nil : frame
            explanation = try explainer.explain(url: url, type: type, top: top, method: method, by: by, frame: frameURL)
        }
        switch format {
        case .text: print(explanation.text, terminator: "")
        case .html: print(ExplainHTML.render(url: url, explanation: explanation.text, verdict: explanation.verdict), terminator: "")
        }
    }
}

extension NavigationInitiator: ExpressibleByArgument {}

enum ExplainFormat: String, CaseIterable, ExpressibleByArgument {
    case text, html
}
