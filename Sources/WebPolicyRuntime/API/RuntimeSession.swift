import Foundation

extension RuntimePolicy {
    /// One web view's loads in order, as a trace replays them: a `page` that loads becomes the
    /// main document of later loads, the first page gets the `Cookie`-header cookies, later
    /// ones the `document.cookie` ones. Thread-safe; use one per web view.
    public final class Session: @unchecked Sendable {
        public let policy: RuntimePolicy
        private var state = WebViewState()
        private var scratch: DecisionEngine.Scratch
        private let lock = NSLock()

        init(policy: RuntimePolicy) {
            self.policy = policy
            scratch = policy.engine.makeScratch()
        }

        /// Decides the load and, for a `page`, moves the view on to it. `mainDocumentURL` of a
        /// subresource overrides the session's page, as `top=` does in a trace.
        public func evaluate(_ request: RuntimeRequest) -> RuntimeDecision {
            lock.lock()
            defer { lock.unlock() }
            let top = request.mainDocumentURL.flatMap { try? CanonicalURL.parse($0).get() }
            state.bindings = policy.bindings
            let (decision, load) = policy.evaluate(request, top: top, in: state, scratch: &scratch)
            if let load, let engineDecision = decision.decision { state.advance(past: load, engineDecision) }
            return decision
        }

        /// The page the view shows, as the engine canonicalised it.
        public var currentPage: String? {
            lock.lock()
            defer { lock.unlock() }
            return state.top?.description
        }
    }

    /// A session for a new web view.
    public func makeSession() -> Session { Session(policy: self) }
}
