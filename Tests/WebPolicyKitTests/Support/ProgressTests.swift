import Foundation
import Testing
@testable import WebPolicyKit

@Suite("Progress of long work")
struct ProgressTests {
    // MARK: The line

    @Test func aTraceShowsItsShareItsRequestsTheRateAndTimeLeft() {
        let stage = ProgressStage("simulating app.trace", total: 100_000_000, unit: .bytes, counted: .requests)
        let line = ProgressLine.text(stage, done: 25_000_000, count: 412_000, elapsed: 2)
        #expect(line == "simulating app.trace  25%  412,000 requests  206,000/s  about 6.0 s left")
    }

    @Test func filesOfAKnownNumberShowHowManyOfHowMany() {
        let stage = ProgressStage("reading the app", total: 3_000, unit: .files)
        #expect(ProgressLine.text(stage, done: 1_500, count: 1_500, elapsed: 1) == "reading the app  50%  1,500 of 3,000 files  1,500/s  about 1.0 s left")
    }

    @Test func bytesWithoutACountShowMegabytes() {
        let stage = ProgressStage("reading", total: 4_000_000, unit: .bytes)
        #expect(ProgressLine.text(stage, done: 1_000_000, count: 0, elapsed: 1) == "reading  25%  1.0 MB of 4.0 MB  1.0 MB/s  about 3.0 s left")
    }

    @Test func aStageOfUnknownSizeShowsHowLongItHasTaken() {
        let stage = ProgressStage("building the engine of vendor.json", unit: .rules)
        #expect(ProgressLine.text(stage, done: 0, count: 0, elapsed: 2.34) == "building the engine of vendor.json  2.3 s")
        #expect(ProgressLine.text(stage, done: 0, count: 0, elapsed: 75) == "building the engine of vendor.json  75 s")
        #expect(ProgressLine.text(stage, done: 0, count: 0, elapsed: 200) == "building the engine of vendor.json  3 min 20 s")
    }

    @Test func standardInputHasNoShareButARate() {
        let stage = ProgressStage("simulating <stdin>", unit: .bytes, counted: .requests)
        #expect(ProgressLine.text(stage, done: 5_000_000, count: 1, elapsed: 0.2) == "simulating <stdin>  1 request  0.2 s")
        #expect(ProgressLine.text(stage, done: 5_000_000, count: 20_000, elapsed: 4) == "simulating <stdin>  20,000 requests  5,000/s  4.0 s")
    }

    @Test func noRateOrTimeLeftIsGuessedFromTheFirstHalfSecond() {
        let stage = ProgressStage("simulating app.trace", total: 100, unit: .bytes, counted: .requests)
        #expect(ProgressLine.text(stage, done: 10, count: 3, elapsed: 0.1) == "simulating app.trace  10%  3 requests")
    }

    @Test func aLineWiderThanTheTerminalIsCutSoItRedrawsInPlace() {
        #expect(ProgressLine.clipped("abcdefghij", width: 8) == "abcdef…")
        #expect(ProgressLine.clipped("abcdefg", width: 8) == "abcdefg")
        #expect(ProgressLine.grouped(1_234_567) == "1,234,567")
        #expect(ProgressLine.grouped(999) == "999")
    }

    // MARK: Drawing

    final class Terminal: @unchecked Sendable {
        var time = 0.0
        var written: [String] = []
    }

    func display(_ terminal: Terminal) -> ProgressDisplay {
        ProgressDisplay(delay: 1, now: { terminal.time }, width: { 200 }, write: { terminal.written.append($0) })
    }

    @Test func workThatEndsWithinTheDelayShowsNothing() {
        let terminal = Terminal()
        let progress = display(terminal)
        progress.begin(ProgressStage("simulating a.trace", total: 10, unit: .bytes, counted: .requests))
        terminal.time = 0.9
        progress.update(done: 5, count: 5)
        progress.tick()
        progress.end()
        #expect(terminal.written.isEmpty)
    }

    @Test func pastTheDelayTheLineIsRedrawnInPlaceAtMostTenTimesASecondAndErasedAtTheEnd() {
        let terminal = Terminal()
        let progress = display(terminal)
        progress.begin(ProgressStage("reading the app", total: 10, unit: .files))
        terminal.time = 1.0
        progress.update(done: 5, count: 5)
        progress.tick()
        #expect(terminal.written == ["\r\u{1B}[2Kreading the app  50%  5 of 10 files  5/s  about 1.0 s left"])
        terminal.time = 1.05
        progress.tick()
        #expect(terminal.written.count == 1)
        terminal.time = 1.2
        progress.tick()
        #expect(terminal.written.count == 2)
        progress.end()
        #expect(terminal.written.last == "\r\u{1B}[2K")
        terminal.time = 5
        progress.tick()
        #expect(terminal.written.count == 3, "nothing is drawn after the end")
    }

    @Test func aNewStageIsDrawnAtOnceAndCountsItsOwnTime() {
        let terminal = Terminal()
        let progress = display(terminal)
        progress.begin(ProgressStage("linting p.yaml", unit: .files))
        terminal.time = 2
        progress.tick()
        progress.begin(ProgressStage("building the engine of p.content-rules.json", unit: .rules))
        terminal.time = 2.01
        progress.tick()
        #expect(terminal.written == ["\r\u{1B}[2Klinting p.yaml  2.0 s", "\r\u{1B}[2Kbuilding the engine of p.content-rules.json  0.0 s"])
    }

    @Test func countsFromManyThreadsArriveWhole() {
        final class Recorder: ProgressObserver, @unchecked Sendable {
            let lock = NSLock()
            var seen: [Int] = []
            func begin(_ stage: ProgressStage) {}
            func update(done: Int, count: Int) { lock.lock(); seen.append(done); lock.unlock() }
            func end() {}
        }
        let recorder = Recorder()
        let counter = ProgressCounter(recorder)
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in counter.add() }
        #expect(recorder.seen == Array(1...1_000))
    }

    // MARK: When

    @Test func progressIsShownOnATerminalOnlyAndNeverUnderCI() {
        #expect(ProgressDisplay.isWanted(environment: [:], standardErrorIsTerminal: true))
        #expect(!ProgressDisplay.isWanted(environment: [:], standardErrorIsTerminal: false))
        #expect(!ProgressDisplay.isWanted(environment: ["CI": "true"], standardErrorIsTerminal: true))
        #expect(ProgressDisplay.isWanted(environment: ["CI": "false"], standardErrorIsTerminal: true))
        #expect(!ProgressDisplay.isWanted(environment: ["TERM": "dumb"], standardErrorIsTerminal: true))
        #expect(!ProgressDisplay.isWanted(environment: ["WEBPOLICY_PROGRESS": "never"], standardErrorIsTerminal: true))
        #expect(ProgressDisplay.isWanted(environment: ["WEBPOLICY_PROGRESS": "always", "CI": "1"], standardErrorIsTerminal: false))
    }
}

@Suite("What long work tells its observer")
struct ProgressReportingTests {
    @Test func aSimulatedTraceIsFollowedByItsBytesToItsSizeThenEnds() throws {
        let trace = "Tests/Fixtures/simulate/webkit/MultipleExtensionsPolicy.trace"
        var session = SimulationSession()
        let recorder = RecordingProgress()
        session.progress = recorder
        let outcome = try session.run(paths: [Repository.path(trace)])
        #expect(outcome.report.failed == 0)
        #expect(recorder.titles == ["preparing " + Repository.path("Tests/Fixtures/simulate/webkit/MultipleExtensionsPolicy.yaml"), "simulating " + Repository.path(trace)])
        guard case .begin(let stage) = recorder.events[1] else { Issue.record("no stage for the trace"); return }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: Repository.path(trace))[.size] as? Int)
        #expect(stage.total == size && stage.unit == .bytes && stage.counted == .requests)
        guard case .update(let done, let count) = recorder.events[recorder.events.count - 2] else { Issue.record("no update"); return }
        #expect(done == size, "every byte read")
        #expect(count == outcome.report.passed + outcome.report.failed)
        #expect(recorder.events.last == .end)
    }

    @Test func compileNamesLintingThenEachListsEngine() throws {
        var compiler = PolicyCompiler(baseDirectory: Repository.path("Tests/Fixtures/simulate/webkit"))
        let recorder = RecordingProgress()
        compiler.progress = recorder
        let result = try compiler.compile(path: "MultipleExtensionsPolicy.yaml")
        #expect(!result.hasErrors)
        #expect(recorder.titles == ["linting MultipleExtensionsPolicy.yaml",
                                    "building the engine of webkit-multipleextensions.content-rules.json (list 1 of 2)",
                                    "building the engine of webkit-multipleextensions.content-rules.vendor.json (list 2 of 2)"])
        #expect(recorder.events.last == .end)
    }
}
