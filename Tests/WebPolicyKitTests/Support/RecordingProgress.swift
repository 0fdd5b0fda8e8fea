import Foundation
@testable import WebPolicyKit

/// A progress observer that remembers what it was told, in order.
final class RecordingProgress: ProgressObserver, @unchecked Sendable {
    enum Event: Equatable {
        case begin(ProgressStage)
        case update(done: Int, count: Int)
        case end
    }

    private let lock = NSLock()
    private var recorded: [Event] = []

    init() {}

    var events: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The stages' titles, in order.
    var titles: [String] { events.compactMap { if case .begin(let stage) = $0 { return stage.title } else { return nil } } }

    func begin(_ stage: ProgressStage) { append(.begin(stage)) }
    func update(done: Int, count: Int) { append(.update(done: done, count: count)) }
    func end() { append(.end) }

    private func append(_ event: Event) {
        lock.lock()
        recorded.append(event)
        lock.unlock()
    }
}
