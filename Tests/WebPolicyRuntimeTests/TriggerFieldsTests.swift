import Testing
@testable import WebPolicyRuntime

/// The engine reads a trigger in one pass over its members; what it reads must be what a
/// lookup of each key WebKit reads finds (the last of a repeated key; the first condition kind,
/// in the vocabulary's order, whose member is an array).
@Suite("a trigger read in one pass")
struct TriggerFieldsTests {
    static func fields(_ json: String) throws -> TriggerFields<JSONNode> {
        let node = try JSONDocument.parse(json).get()
        var fields = TriggerFields<JSONNode>()
        node.forEachMember { fields.take($0, $1) }
        return fields
    }

    @Test func aRepeatedKeyIsReadAsItsLastValue() throws {
        let fields = try Self.fields(#"{"url-filter": "a", "url-filter-is-case-sensitive": true, "url-filter": "b", "url-filter-is-case-sensitive": 1}"#)
        #expect(fields.urlFilter == "b")
        #expect(!fields.caseSensitive)
    }

    @Test func typesAreMasksOfTheirConcreteValuesAndUnknownNamesAddNone() throws {
        let fields = try Self.fields(#"{"resource-type": ["document", "image", "gibberish"], "load-type": ["third-party"], "load-context": 7}"#)
        let expected = ([ResourceType.topDocument, .childDocument, .image]).reduce(UInt32(0)) { $0 | FlagMask.bit($1) }
        #expect(fields.resourceTypes == expected)
        #expect(fields.loadTypes == FlagMask.bit(LoadType.thirdParty))
        #expect(fields.loadContexts == 0)
    }

    @Test func theConditionIsTheFirstKindWhoseLastMemberIsAnArray() throws {
        let both = try Self.fields(#"{"unless-top-url": ["x"], "if-domain": ["a.example"]}"#)
        #expect(both.condition?.ordinal == ConditionKind.allCases.firstIndex(of: .ifDomain))
        // The last `if-domain` is not an array: WebKit's lookup finds it, so the next kind holds.
        let overwritten = try Self.fields(#"{"if-domain": ["a.example"], "unless-domain": ["b.example"], "if-domain": "c"}"#)
        #expect(overwritten.condition?.ordinal == ConditionKind.allCases.firstIndex(of: .unlessDomain))
        #expect(overwritten.condition?.entries.first?.string == "b.example")
        #expect(try Self.fields(#"{"url-filter": "x"}"#).condition == nil)
    }
}
