import WebPolicyRuntime

/// Runs a web view's preparation once — content-rule lists installed and added, every cookie
/// completion fired — and makes every navigation wait for it. DuckDuckGo's iOS app shipped
/// this gate after first tabs loaded before their rules were in place (unprotected), and
/// cookies set after the first request starts never reach it (ios-domain.md §4.5).
public actor ReadinessGate<Report: Sendable> {
    private var preparation: Task<Report, Error>?

    public init() {}

    /// Starts the preparation (once; later calls join the first) and returns its report when
    /// it has finished. A failed preparation is rethrown to every caller and may be retried.
    public func prepare(_ work: @escaping @Sendable () async throws -> Report) async throws -> Report {
        if let preparation { return try await preparation.value }
        let task = Task { try await work() }
        preparation = task
        do {
            return try await task.value
        } catch {
            preparation = nil
            throw error
        }
    }

    /// Waits for a preparation under way or done; returns at once when none was started.
    public func waitUntilReady() async throws {
        if let preparation { _ = try await preparation.value }
    }

    public var isReady: Bool {
        get async {
            guard let preparation else { return false }
            return (try? await preparation.value) != nil
        }
    }
}

/// Where lists go once installed (`WKUserContentController.add(_:)`).
public protocol RuleListTarget<List>: Sendable {
    associatedtype List: Sendable
    func add(_ list: List) async
}

/// What a web view's preparation did.
public struct PreparationReport: Sendable {
    public var lists: RuleListInstallReport
    public var cookiesSet: Int
}

/// The preparation a `ReadinessGate` runs for a web view: install the policy's lists, add
/// them, set the cookie-store cookies, each completion awaited.
public func preparePolicy<Store: RuleListStore, Target: RuleListTarget>(
    _ policy: RuntimePolicy, store: Store, target: Target, cookies: CookieSetting, values: CookieValueSource
) async throws -> PreparationReport where Target.List == Store.List {
    let (lists, report) = await RuleListInstaller(store: store).install(policy)
    for list in lists { await target.add(list) }
    let installer = CookieInstaller(policy: policy, values: values)
    try await installer.installInStore(cookies)
    return PreparationReport(lists: report, cookiesSet: try installer.cookies().filter { $0.via == .cookieStore }.count)
}
