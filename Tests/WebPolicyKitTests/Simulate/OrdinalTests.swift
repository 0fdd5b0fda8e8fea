import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// The switch-written positions of the flag vocabularies must be their places in `allCases`,
/// which content-blocker bit masks and the lint rules' masks are built from.
@Suite("Vocabulary positions")
struct OrdinalTests {
    func check<T: Ordinal>(_: T.Type) {
        for (index, value) in T.allCases.enumerated() {
            #expect(value.ordinal == index, "\(value)")
        }
    }

    @Test func positionsAreThePlacesInAllCases() {
        check(ContentActionType.self)
        check(ResourceType.self)
        check(LoadType.self)
        check(LoadContext.self)
        check(RequestMethod.self)
        check(Verdict.self)
    }
}
