import Foundation

/// `LanguageServer` on standard input and output, as editors start it. Messages are handled
/// one at a time on one queue; a lint after an edit waits there for the typing to pause
/// (`debounce`), and is skipped if another edit came meanwhile.
public enum StdioServer {
    /// Serves until `exit` (or until the editor closes the input); the process's exit status.
    public static func run(version: String, debounce: TimeInterval = 0.15) -> Int32 {
        let queue = DispatchQueue(label: "webpolicy.lsp")
        let output = FileHandle.standardOutput
        let server = LanguageServer(
            version: version,
            send: { bytes in try? output.write(contentsOf: bytes) },
            scheduler: { work in queue.asyncAfter(deadline: .now() + debounce, execute: work) })
        var framing = MessageFraming()
        while true {
            // Blocks until bytes arrive; empty when the input is closed.
            let data = FileHandle.standardInput.availableData
            if data.isEmpty { break }
            let bodies: [[UInt8]]
            do {
                bodies = try framing.add(data)
            } catch {
                FileHandle.standardError.write(Data("webpolicy lsp: \(error.description); stopping\n".utf8))
                return 1
            }
            for body in bodies {
                if let status = queue.sync(execute: { () -> Int32? in
                    server.handle(body)
                    return server.exitStatus
                }) {
                    return status
                }
            }
        }
        // LSP 3.17: a server whose input ends without `exit` ends as if told to, unshut: 1.
        return queue.sync { server.exitStatus } ?? 1
    }
}
