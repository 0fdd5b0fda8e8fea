import Dispatch
import Foundation
import WebPolicyKit

/// Progress of long work on standard error, for a person at a terminal: a trace of millions of
/// requests, a list of a hundred thousand rules, an app of thousands of files. Nothing when
/// standard error is not a terminal, under CI, or with WEBPOLICY_PROGRESS=never; nothing ever
/// on standard output, so no format a machine reads can hold it.
enum TerminalProgress {
    /// The observer for a command's work, or nil when none is wanted. `streamsToStandardOutput`:
    /// the command writes results while it works (simulate's JSON lines); on the same terminal
    /// the redraws would tear them, so then there is none.
    static func observer(streamsToStandardOutput: Bool = false) -> ProgressObserver? {
        let environment = ProcessInfo.processInfo.environment
        guard ProgressDisplay.isWanted(environment: environment, standardErrorIsTerminal: isatty(STDERR_FILENO) != 0) else { return nil }
        if streamsToStandardOutput && isatty(STDOUT_FILENO) != 0 { return nil }
        let display = ProgressDisplay(now: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }, width: { terminalWidth(environment) },
                                      write: StandardError.write)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "webpolicy.progress"))
        timer.schedule(deadline: .now() + ProgressDisplay.interval, repeating: ProgressDisplay.interval)
        timer.setEventHandler { display.tick() }
        timer.resume()
        // The timer lives as long as the process: a command is one run of work.
        timers.append(timer)
        return display
    }

    nonisolated(unsafe) private static var timers: [DispatchSourceTimer] = []

    /// Columns of the terminal standard error shows on (COLUMNS, else 80, when it cannot say).
    private static func terminalWidth(_ environment: [String: String]) -> Int {
        var size = winsize()
        #if canImport(Darwin)
        let status = ioctl(STDERR_FILENO, TIOCGWINSZ, &size)
        #else
        let status = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size)
        #endif
        if status == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return environment["COLUMNS"].flatMap(Int.init) ?? 80
    }
}
