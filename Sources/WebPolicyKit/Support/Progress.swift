import Foundation

/// What a stage of long work is — a trace being simulated, a list's engine being built, an
/// app's files being read — so a watcher can say how far it has come.
public struct ProgressStage: Sendable, Equatable {
    /// What is being done, as a person reads it: "simulating app.trace".
    public var title: String
    /// The stage's size in `unit`s, when known (nil: standard input, a single step).
    public var total: Int?
    /// What `done` counts.
    public var unit: ProgressUnit
    /// What `count` counts, when it is not the unit (requests, while a trace's bytes measure
    /// how far it is).
    public var counted: ProgressUnit?

    public init(_ title: String, total: Int? = nil, unit: ProgressUnit, counted: ProgressUnit? = nil) {
        self.title = title
        self.total = total
        self.unit = unit
        self.counted = counted
    }
}

/// A unit of progress: bytes are shown in MB, everything else as a number of things.
public enum ProgressUnit: Sendable, Equatable {
    case bytes
    case things(singular: String, plural: String)

    public static let requests = ProgressUnit.things(singular: "request", plural: "requests")
    public static let files = ProgressUnit.things(singular: "file", plural: "files")
    public static let rules = ProgressUnit.things(singular: "rule", plural: "rules")
}

/// Told about long work as it goes. The library calls it per block, file or list — never per
/// request — so an observer may take a lock; it decides itself whether and when to show
/// anything. Calls may come from any thread (an audit reads files on every core), `done`
/// never going back within a stage.
public protocol ProgressObserver: AnyObject, Sendable {
    func begin(_ stage: ProgressStage)
    /// `done` units of the current stage are complete, and `count` of what it counts.
    func update(done: Int, count: Int)
    /// The work is over: whatever was shown is taken away.
    func end()
}

/// Counts work done on several threads for one stage and passes each new total on in order.
public final class ProgressCounter: @unchecked Sendable {
    private let observer: ProgressObserver?
    private let lock = NSLock()
    private var done = 0

    public init(_ observer: ProgressObserver?) {
        self.observer = observer
    }

    public func add(_ units: Int = 1) {
        guard let observer else { return }
        lock.lock()
        defer { lock.unlock() }
        done += units
        observer.update(done: done, count: done)
    }
}

/// The line a terminal shows for a stage: pure, so its wording is tested without a clock.
public enum ProgressLine {
    /// "simulating app.trace  45%  412,000 requests  310,000/s  about 2 s left"; a stage of
    /// unknown size shows what is done and how long it has taken.
    public static func text(_ stage: ProgressStage, done: Int, count: Int, elapsed: Double) -> String {
        var parts = [stage.title]
        if let total = stage.total, total > 0 {
            parts.append("\(min(100, done * 100 / total))%")
        }
        let shownUnit = stage.counted ?? stage.unit
        let shown = stage.counted == nil ? done : count
        if shown > 0 {
            if stage.counted == nil, let total = stage.total, case .bytes = stage.unit {
                parts.append("\(megabytes(shown)) of \(megabytes(total))")
            } else if stage.counted == nil, let total = stage.total {
                parts.append("\(grouped(shown)) of \(quantity(total, shownUnit))")
            } else {
                parts.append(quantity(shown, shownUnit))
            }
            if elapsed >= 0.5 {
                let rate = Double(shown) / elapsed
                if case .bytes = shownUnit {
                    parts.append("\(megabytes(Int(rate)))/s")
                } else {
                    parts.append("\(grouped(Int(rate.rounded())))/s")
                }
            }
        }
        if let total = stage.total, done > 0, done < total, elapsed >= 0.5 {
            let left = elapsed * Double(total - done) / Double(done)
            parts.append("about \(duration(left)) left")
        } else if stage.total == nil || done == 0 {
            parts.append(duration(elapsed))
        }
        return parts.joined(separator: "  ")
    }

    /// The line cut to the terminal's width: a line that wraps cannot be redrawn in place.
    public static func clipped(_ line: String, width: Int) -> String {
        guard width > 1, line.count >= width else { return line }
        return String(line.prefix(width - 2)) + "…"
    }

    static func quantity(_ value: Int, _ unit: ProgressUnit) -> String {
        switch unit {
        case .bytes: return megabytes(value)
        case .things(let singular, let plural): return "\(grouped(value)) \(value == 1 ? singular : plural)"
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 120 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }

    /// 1234567 → "1,234,567", the same on every machine.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}
