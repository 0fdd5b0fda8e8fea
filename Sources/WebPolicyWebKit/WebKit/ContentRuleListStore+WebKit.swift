#if canImport(WebKit)
import WebKit
import WebPolicyRuntime

/// `WKContentRuleListStore` as a `RuleListStore`: each call wraps its completion handler.
public struct WebKitRuleListStore: RuleListStore, @unchecked Sendable {
    public let store: WKContentRuleListStore

    public init(store: WKContentRuleListStore = .default()) {
        self.store = store
    }

    @MainActor public func availableIdentifiers() async -> [String] {
        await withCheckedContinuation { continuation in
            store.getAvailableContentRuleListIdentifiers { continuation.resume(returning: $0 ?? []) }
        }
    }

    @MainActor public func lookUp(identifier: String) async -> WKContentRuleList? {
        await withCheckedContinuation { continuation in
            store.lookUpContentRuleList(forIdentifier: identifier) { list, _ in continuation.resume(returning: list) }
        }
    }

    @MainActor public func compile(identifier: String, json: String) async throws -> WKContentRuleList {
        try await withCheckedThrowingContinuation { continuation in
            store.compileContentRuleList(forIdentifier: identifier, encodedContentRuleList: json) { list, error in
                if let list { continuation.resume(returning: list) } else { continuation.resume(throwing: error ?? CocoaError(.featureUnsupported)) }
            }
        }
    }

    @MainActor public func remove(identifier: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            store.removeContentRuleList(forIdentifier: identifier) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}

/// `WKUserContentController` as the place installed lists go.
public struct WebKitRuleListTarget: RuleListTarget, @unchecked Sendable {
    public let controller: WKUserContentController

    public init(_ controller: WKUserContentController) {
        self.controller = controller
    }

    @MainActor public func add(_ list: WKContentRuleList) async {
        controller.add(list)
    }
}
#endif
