import Foundation
import WebPolicyRuntime

/// The decision engine's scratches a simulation's chunks work with, kept from block to block.
/// A scratch remembers a page's condition results and — across pages — the universal rules'
/// results by kind of load; one made fresh for every chunk of every block (eight a block on
/// two cores) worked them out again each time: on a real list, most of what a page's first
/// loads cost. Any scratch gives the same decisions (`DecisionEngine.Scratch`), so which chunk
/// gets which does not matter.
final class ScratchPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [DecisionEngine.Scratch] = []

    /// A scratch no one else holds: one given back before, or a new one.
    func take(for engine: DecisionEngine) -> DecisionEngine.Scratch {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? engine.makeScratch()
    }

    func give(back scratch: consuming DecisionEngine.Scratch) {
        lock.lock()
        defer { lock.unlock() }
        free.append(scratch)
    }
}
