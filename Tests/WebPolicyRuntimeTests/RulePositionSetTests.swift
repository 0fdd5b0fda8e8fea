import Testing
import URLFilter
@testable import WebPolicyRuntime

/// The sorted rule-position lists a list's result is made of: merging a page's few activated
/// rules into thousands of held ones copies the runs between them whole, and must give what a
/// merge one element at a time gives.
@Suite("Rule positions, merged")
struct RulePositionSetTests {
    /// The merge one element at a time: a value on both sides goes in once.
    static func reference(_ left: [Int32], _ right: [Int32]) -> [Int32] {
        var merged: [Int32] = []
        var l = 0, r = 0
        while l < left.count || r < right.count {
            if r == right.count || (l < left.count && left[l] < right[r]) {
                merged.append(left[l])
                l += 1
            } else {
                if l < left.count, left[l] == right[r] { l += 1 }
                merged.append(right[r])
                r += 1
            }
        }
        return merged
    }

    static func sortedList(_ random: inout SplitMix64, count: Int, range: Int32) -> [Int32] {
        (0..<count).map { _ in Int32(random.next() % UInt64(range)) }.sorted()
    }

    @Test func aMergeIsTheOneElementAtATimeMerge() {
        var random = SplitMix64(state: 21)
        for round in 0..<3_000 {
            // Short into long (a page's activated rules into the held ones), and alike sizes;
            // values shared between the sides, and repeated within one.
            let long = Self.sortedList(&random, count: Int(random.next() % (round % 3 == 0 ? 2_000 : 40)), range: 3_000)
            let short = Self.sortedList(&random, count: Int(random.next() % 12), range: 3_000)
            #expect(ContentRuleEngine.merge(long, short) == Self.reference(long, short))
            #expect(ContentRuleEngine.merge(short, long) == Self.reference(short, long))
        }
        #expect(ContentRuleEngine.merge([1, 5, 9], [5]) == [1, 5, 9])
        #expect(ContentRuleEngine.merge([], [2, 3]) == [2, 3])
    }
}
