import WebPolicyRuntime

/// What a content rule's trigger matches, as comparable data: rules with equal shapes match
/// exactly the same loads, and a shape can say it covers another (matches at least the loads
/// the other matches) when that follows from the fields alone — no automata, so "covers" is
/// sure when it says yes and silent otherwise.
struct TriggerShape: Hashable, Sendable {
    /// The url-filter as written, or the hosts as a sorted list; `.*`-like filters are nil.
    var filter: String?
    var hosts: [String]?
    var caseSensitive: Bool
    /// Bit masks (`FlagMask`) of the flag lists; 0 when a list is absent or empty.
    var resourceTypes: UInt32
    var loadTypes: UInt32
    var loadContexts: UInt32
    var methods: UInt32
    var conditions: [String]

    init(_ trigger: Trigger) {
        let urlFilter = trigger.urlFilter?.value
        filter = urlFilter.flatMap { [".*", "^.*", ".*$", "^.*$", ""].contains($0) ? nil : $0 }
        hosts = trigger.hosts.map { $0.value.map { $0.value.lowercased() }.sorted() }
        caseSensitive = trigger.urlFilterIsCaseSensitive?.value ?? false
        func mask<T: Ordinal>(_ values: [Located<T>]?, expand: (T) -> [T] = { [$0] }) -> UInt32 {
            (values ?? []).flatMap { expand($0.value) }.reduce(0) { $0 | FlagMask.bit($1) }
        }
        resourceTypes = mask(trigger.resourceTypes?.value, expand: ResourceType.expanded)
        loadTypes = mask(trigger.loadTypes?.value)
        loadContexts = mask(trigger.loadContexts?.value)
        methods = mask(trigger.requestMethods?.value)
        conditions = trigger.conditions.map { "\($0.kind.rawValue)=\($0.values.map(\.value).joined(separator: ","))" }
            + [trigger.topURLFilterIsCaseSensitive?.value == true ? "top-case" : "", trigger.frameURLFilterIsCaseSensitive?.value == true ? "frame-case" : ""].filter { !$0.isEmpty }
    }

    /// No url-filter narrows it: it matches every URL.
    var matchesEverything: Bool { filter == nil && hosts == nil }

    /// What a shape must share with a narrower one for `covers` to hold, unless it matches
    /// every URL: the same url matching.
    struct URLKey: Hashable {
        var filter: String?
        var hosts: [String]?
        var caseSensitive: Bool
    }

    var urlKey: URLKey { URLKey(filter: filter, hosts: hosts, caseSensitive: caseSensitive) }

    /// Every load this shape's trigger matches is also matched by `self`: the same url
    /// matching (or one that matches everything), each flag list absent or a superset, and no
    /// condition or the same one.
    func covers(_ other: TriggerShape) -> Bool {
        guard matchesEverything || (filter == other.filter && hosts == other.hosts && caseSensitive == other.caseSensitive) else { return false }
        func wider(_ mine: UInt32, _ theirs: UInt32) -> Bool { mine == 0 || (theirs != 0 && theirs & ~mine == 0) }
        return wider(resourceTypes, other.resourceTypes) && wider(loadTypes, other.loadTypes)
            && wider(loadContexts, other.loadContexts) && wider(methods, other.methods)
            && (conditions.isEmpty || conditions == other.conditions)
    }
}

/// Shapes that may cover others, in the order they were added, looked up without comparing a
/// shape with all of them: a shape that covers another either matches every URL — and then
/// has no condition or the same one — or has the same url matching. A list of 100,000 rules
/// and 1,000 ignore rules costs a few hash lookups per rule instead of 1,000 comparisons.
struct TriggerShapeIndex {
    private var shapes: [TriggerShape] = []
    /// Positions in `shapes`, ascending, by what a covered shape must share with them.
    private var everything: [[String]: [Int]] = [:]
    private var byURL: [TriggerShape.URLKey: [Int]] = [:]

    var isEmpty: Bool { shapes.isEmpty }

    /// Adds a shape; returns its position (the order `firstCovering` answers in).
    @discardableResult
    mutating func add(_ shape: TriggerShape) -> Int {
        let position = shapes.count
        shapes.append(shape)
        if shape.matchesEverything {
            everything[shape.conditions, default: []].append(position)
        } else {
            byURL[shape.urlKey, default: []].append(position)
        }
        return position
    }

    /// The position of the first added shape that covers `shape`, if any.
    func firstCovering(_ shape: TriggerShape) -> Int? {
        var best: Int?
        func consider(_ positions: [Int]?) {
            guard let positions else { return }
            for position in positions {
                if let best, position >= best { return }
                if shapes[position].covers(shape) {
                    best = position
                    return
                }
            }
        }
        consider(everything[[]])
        if !shape.conditions.isEmpty { consider(everything[shape.conditions]) }
        consider(byURL[shape.urlKey])
        return best
    }
}
