import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map` over all cores, in order: element `i` of the result is `transform(self[i])`, so
    /// output stays deterministic. Worth it only for independent, costly transforms.
    package func parallelMap<T: Sendable>(minimumChunk: Int = 256, _ transform: @Sendable (Element) -> T) -> [T] {
        let count = self.count
        let chunks = Swift.min(ProcessInfo.processInfo.activeProcessorCount * 4, (count + minimumChunk - 1) / minimumChunk)
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
