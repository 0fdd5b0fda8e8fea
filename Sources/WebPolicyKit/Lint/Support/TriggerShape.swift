/// What a content rule's trigger matches, as comparable data: rules with equal shapes match
/// exactly the same loads, and a shape can say it covers another (matches at least the loads
/// the other matches) when that follows from the fields alone — no automata, so "covers" is
/// sure when it says yes and silent otherwise.
struct TriggerShape: Equatable {
    /// The url-filter as written, or the hosts as a sorted list; `.*`-like filters are nil.
    var filter: String?
    var hosts: [String]?
    var caseSensitive: Bool
    var resourceTypes: Set<String>
    var loadTypes: Set<String>
    var loadContexts: Set<String>
    var methods: Set<String>
    var conditions: [String]

    init(_ trigger: Trigger) {
        let urlFilter = trigger.urlFilter?.value
        filter = urlFilter.flatMap { [".*", "^.*", ".*$", "^.*$", ""].contains($0) ? nil : $0 }
        hosts = trigger.hosts.map { $0.value.map { $0.value.lowercased() }.sorted() }
        caseSensitive = trigger.urlFilterIsCaseSensitive?.value ?? false
        resourceTypes = Set((trigger.resourceTypes?.value ?? []).flatMap { ResourceType.expanded($0.value).map(\.rawValue) })
        loadTypes = Set((trigger.loadTypes?.value ?? []).map(\.value.rawValue))
        loadContexts = Set((trigger.loadContexts?.value ?? []).map(\.value.rawValue))
        methods = Set((trigger.requestMethods?.value ?? []).map(\.value.rawValue))
        conditions = trigger.conditions.map { "\($0.kind.rawValue)=\($0.values.map(\.value).joined(separator: ","))" }
            + [trigger.topURLFilterIsCaseSensitive?.value == true ? "top-case" : "", trigger.frameURLFilterIsCaseSensitive?.value == true ? "frame-case" : ""].filter { !$0.isEmpty }
    }

    /// Every load this shape's trigger matches is also matched by `self`: the same url
    /// matching (or one that matches everything), each flag list absent or a superset, and no
    /// condition or the same one.
    func covers(_ other: TriggerShape) -> Bool {
        let matchesEverything = filter == nil && hosts == nil
        guard matchesEverything || (filter == other.filter && hosts == other.hosts && caseSensitive == other.caseSensitive) else { return false }
        func wider(_ mine: Set<String>, _ theirs: Set<String>) -> Bool { mine.isEmpty || (!theirs.isEmpty && theirs.isSubset(of: mine)) }
        return wider(resourceTypes, other.resourceTypes) && wider(loadTypes, other.loadTypes)
            && wider(loadContexts, other.loadContexts) && wider(methods, other.methods)
            && (conditions.isEmpty || conditions == other.conditions)
    }
}
