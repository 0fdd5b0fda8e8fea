import Testing
import WebPolicyAudit
import WebPolicyRuntime

/// Run-time tests evaluated for an App Store release build, and the schemes that reach a call.
@Suite struct RuntimeConditionTests {
    static let here = SourceLocation(path: "Build.swift", range: SourceRange(at: SourcePosition(line: 3, column: 5)))

    @Test func anAppStoreBuildIsNoSandboxAndHasNoSchemeVariables() {
        let flags = FlagTable([FlagDeclaration(name: "isProduction", value: RuntimeCondition(text: "receipt", term: .sandboxReceipt), location: Self.here)])
        let notProduction = flags.evaluate(RuntimeCondition(text: "!isProduction", term: .not(.reference("isProduction"))))
        #expect(notProduction.value == true)
        #expect(notProduction.reasons.first?.location == Self.here)
        #expect(flags.evaluate(RuntimeCondition(text: "$X", term: .environmentVariable("X"))).value == false)
        #expect(flags.evaluate(RuntimeCondition(text: "debug", term: .debugAssertConfiguration)).value == false)
        // Unknown stays unknown; a false term decides an and, a true one an or.
        #expect(flags.evaluate(RuntimeCondition(text: "x", term: .reference("settingOfTheUser"))).value == nil)
        #expect(flags.evaluate(RuntimeCondition(text: "", term: .and([.unknown("a"), .environmentVariable("X")]))).value == false)
        #expect(flags.evaluate(RuntimeCondition(text: "", term: .or([.unknown("a"), .not(.sandboxReceipt)]))).value == true)
        // A build fact that holds beside a test of run-time data: true whenever that holds.
        let partial = flags.evaluate(RuntimeCondition(text: "", term: .and([.unknown("url.isZIMURL"), .not(.reference("isProduction"))])))
        #expect(partial.value == true)
        #expect(partial.undecided == ["url.isZIMURL"])
        #expect(flags.evaluate(RuntimeCondition(text: "", term: .not(.and([.unknown("url.isZIMURL"), .not(.reference("isProduction"))])))).value == nil)
    }

    /// A name declared twice with different values is not resolved; a flag defined by itself ends.
    @Test func ambiguousAndCircularFlagsAreUnknown() {
        let twice = FlagTable([
            FlagDeclaration(name: "isBeta", value: RuntimeCondition(text: "a", term: .sandboxReceipt), location: Self.here),
            FlagDeclaration(name: "isBeta", value: RuntimeCondition(text: "b", term: .constant(true)), location: Self.here),
        ])
        #expect(twice.evaluate(RuntimeCondition(text: "isBeta", term: .reference("isBeta"))).value == nil)
        let circular = FlagTable([FlagDeclaration(name: "a", value: RuntimeCondition(text: "!a", term: .not(.reference("a"))), location: Self.here)])
        #expect(circular.evaluate(RuntimeCondition(text: "a", term: .reference("a"))).value == nil)
    }

    @Test func schemeTestsNarrowWhatReachesACall() {
        #expect(SchemeScope.any.intersection(.only(["tel"])) == .only(["tel"]))
        #expect(SchemeScope.anyExcept(["http", "https"]).intersection(.only(["http", "https", "tel"])) == .only(["tel"]))
        #expect(SchemeScope.anyExcept(["http"]).intersection(.anyExcept(["https"])) == .anyExcept(["http", "https"]))
        #expect(SchemeScope.queried.intersection(.only(["sms"])) == .only(["sms"]))
        #expect(SchemeScope.anyExcept(["http"]).isUnbounded)
        #expect(!SchemeScope.only(["tel"]).isUnbounded)
        #expect(SchemeScope.anyExcept(["http", "https"]).phrase == "of every scheme but http and https")
    }
}
