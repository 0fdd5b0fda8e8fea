import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map` over all cores, in order: element `i` of the result is `transform(self[i])`, so
    /// output stays deterministic. Worth it only for independent, costly transforms.
    package func parallelMap<T: Sendable>(minimumChunk: Int = 256, _ transform: @Sendable (Element) -> T) -> [T] {
        let count = self.count
        // Small inputs never ask for the core count: on Linux it reads cgroup files each time.
        guard count > minimumChunk else { return map(transform) }
        let chunks = Swift.min(ParallelMapCores.count * 4, (count + minimumChunk - 1) / minimumChunk)
        guard chunks > 1 else { return map(transform) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            // Each chunk initialises its own disjoint slice of the output.
            nonisolated(unsafe) let slots = buffer
            self.withUnsafeBufferPointer { elements in
                nonisolated(unsafe) let input = elements
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for index in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                        (slots.baseAddress! + index).initialize(to: transform(input[index]))
                    }
                }
            }
            initializedCount = count
        }
    }
}

private enum ParallelMapCores {
    /// Read once a process: Foundation's `activeProcessorCount` opens /proc and cgroup files.
    static let count = ProcessInfo.processInfo.activeProcessorCount
}
