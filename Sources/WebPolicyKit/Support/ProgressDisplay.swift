import Foundation

/// Progress drawn in place on a terminal: one line, redrawn at most ten times a second, only
/// once the work has taken longer than `delay` (a run that ends sooner shows nothing), and
/// erased before anything else is written. The clock and the writer are given, so the drawing
/// is tested without a terminal or a timer; the command line's `tick` comes from a timer.
public final class ProgressDisplay: ProgressObserver, @unchecked Sendable {
    /// Whether progress may be drawn: `WEBPOLICY_PROGRESS` = `always` or `never` decides;
    /// otherwise (`auto`) only on a terminal that can redraw a line, and never under CI (its
    /// logs keep every redraw) — the same as cargo, npm and pip.
    public static func isWanted(environment: [String: String], standardErrorIsTerminal: Bool) -> Bool {
        switch environment["WEBPOLICY_PROGRESS"]?.lowercased() {
        case "always": return true
        case "never": return false
        default:
            if let ci = environment["CI"], !ci.isEmpty, ci.lowercased() != "false" { return false }
            if environment["TERM"] == "dumb" { return false }
            return standardErrorIsTerminal
        }
    }

    /// How long work runs before progress is shown.
    public static let defaultDelay = 1.0
    /// The least time between two drawings.
    public static let interval = 0.1

    private let lock = NSLock()
    private let write: (String) -> Void
    private let now: () -> Double
    private let width: () -> Int
    private let delay: Double
    private let started: Double
    private var stage: ProgressStage?
    private var stageStarted = 0.0
    private var done = 0
    private var count = 0
    private var drawn = false
    private var lastLine = ""
    private var lastDrawing = -Double.infinity
    private var ended = false

    /// `write` puts text on the terminal; `width` is its width in columns.
    public init(delay: Double = ProgressDisplay.defaultDelay, now: @escaping () -> Double, width: @escaping () -> Int, write: @escaping (String) -> Void) {
        self.delay = delay
        self.now = now
        self.width = width
        self.write = write
        started = now()
    }

    public func begin(_ stage: ProgressStage) {
        lock.lock()
        defer { lock.unlock() }
        self.stage = stage
        stageStarted = now()
        done = 0
        count = 0
        // A new stage is drawn at once, whatever the interval: its title is news.
        lastDrawing = -Double.infinity
        ended = false
    }

    public func update(done: Int, count: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.done = done
        self.count = count
    }

    /// Draws the current stage, if the work has gone on long enough and the line is due.
    public func tick() {
        lock.lock()
        defer { lock.unlock() }
        let time = now()
        guard !ended, let stage, time - started >= delay, time - lastDrawing >= Self.interval else { return }
        lastDrawing = time
        let line = ProgressLine.clipped(ProgressLine.text(stage, done: done, count: count, elapsed: time - stageStarted), width: width())
        // A line that says what the terminal shows already is not sent again.
        guard !drawn || line != lastLine else { return }
        drawn = true
        lastLine = line
        // Carriage return and erase-line: the line is redrawn where it is.
        write("\r\u{1B}[2K" + line)
    }

    public func end() {
        lock.lock()
        defer { lock.unlock() }
        ended = true
        stage = nil
        if drawn { write("\r\u{1B}[2K") }
        drawn = false
    }
}
