import Dispatch

/// Reads a stream's next block ahead, on another thread, one block at a time.
final class BlockPrefetch: @unchecked Sendable {
    private let stream: TraceStream
    private var ahead: [TraceRun]?
    private var done = false
    private let ready = DispatchSemaphore(value: 0)
    /// The stream's bytes read when the block `next` returned was parsed (read after the
    /// semaphore, before the next read starts: never while the stream is being read).
    private(set) var bytesRead = 0

    init(_ stream: TraceStream) {
        self.stream = stream
        fetch()
    }

    /// Starts reading the next block; only one read is under way at a time, and the stream is
    /// touched by nothing else meanwhile.
    private func fetch() {
        DispatchQueue.global().async { [self] in
            ahead = stream.nextRuns()
            ready.signal()
        }
    }

    /// The next block (waiting for it), or nil at the end.
    func next() -> [TraceRun]? {
        guard !done else { return nil }
        ready.wait()
        let entries = ahead
        ahead = nil
        bytesRead = stream.bytesRead
        if entries == nil { done = true } else { fetch() }
        return entries
    }
}
