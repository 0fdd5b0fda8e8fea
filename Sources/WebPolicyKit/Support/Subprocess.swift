import Foundation

/// Runs another program to its end, standard input given, standard output and error caught.
enum Subprocess {
    static func run(_ executable: String, _ arguments: [String], input: Data = Data(), directory: String? = nil) -> (status: Int32, output: Data, errors: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch { return (127, Data(), Data("\(error)".utf8)) }
        // Read both pipes while writing, so neither side blocks on a full pipe.
        nonisolated(unsafe) var output = Data(), errors = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { output = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }
}
