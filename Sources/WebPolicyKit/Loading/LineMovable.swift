import WebPolicyRuntime

/// A section entry the decoder's memo can take back when only its line changed (a line added
/// or removed above it): its text is the same byte for byte from its line's start, so every
/// position in it moves by the same number of lines, columns as they were.
protocol LineMovable: Sendable {
    /// The same entry `delta` lines further down; nil when it holds what is not moved here
    /// (it is then decoded afresh).
    func moved(byLines delta: Int) -> Self?
}

extension SourceLocation {
    func moved(byLines delta: Int) -> SourceLocation {
        SourceLocation(path: path, range: SourceRange(start: SourcePosition(line: range.start.line + delta, column: range.start.column),
                                                      end: SourcePosition(line: range.end.line + delta, column: range.end.column)))
    }
}

extension LocatedString {
    func moved(byLines delta: Int) -> LocatedString { LocatedString(value, at: location.moved(byLines: delta), style: style) }
}

extension Located {
    func moved(byLines delta: Int) -> Located { Located(value, at: location.moved(byLines: delta)) }

    /// A located list of located values, each moved.
    func movedEach<Element>(byLines delta: Int) -> Located where Value == [Located<Element>] {
        Located(value.map { $0.moved(byLines: delta) }, at: location.moved(byLines: delta))
    }

    func movedEach(byLines delta: Int) -> Located where Value == [LocatedString] {
        Located(value.map { $0.moved(byLines: delta) }, at: location.moved(byLines: delta))
    }
}

extension ContentRule: LineMovable {
    /// A block list's rule: a redirect or header operations are decoded afresh.
    func moved(byLines delta: Int) -> ContentRule? {
        guard redirect == nil, requestHeaders == nil, responseHeaders == nil else { return nil }
        var trigger = self.trigger
        trigger.urlFilter = trigger.urlFilter?.moved(byLines: delta)
        trigger.hosts = trigger.hosts?.movedEach(byLines: delta)
        trigger.urlFilterIsCaseSensitive = trigger.urlFilterIsCaseSensitive?.moved(byLines: delta)
        trigger.topURLFilterIsCaseSensitive = trigger.topURLFilterIsCaseSensitive?.moved(byLines: delta)
        trigger.frameURLFilterIsCaseSensitive = trigger.frameURLFilterIsCaseSensitive?.moved(byLines: delta)
        trigger.resourceTypes = trigger.resourceTypes?.movedEach(byLines: delta)
        trigger.loadTypes = trigger.loadTypes?.movedEach(byLines: delta)
        trigger.loadContexts = trigger.loadContexts?.movedEach(byLines: delta)
        trigger.requestMethods = trigger.requestMethods?.movedEach(byLines: delta)
        trigger.conditions = trigger.conditions.map { condition in
            Condition(kind: condition.kind, values: condition.values.map { $0.moved(byLines: delta) },
                      location: condition.location.moved(byLines: delta), listLocation: condition.listLocation.moved(byLines: delta))
        }
        return ContentRule(location: location.moved(byLines: delta), id: id?.moved(byLines: delta), description: description?.moved(byLines: delta),
                           action: action.moved(byLines: delta), trigger: trigger, selector: selector?.moved(byLines: delta),
                           notification: notification?.moved(byLines: delta), redirect: nil, priority: priority?.moved(byLines: delta),
                           requestHeaders: nil, responseHeaders: nil, derived: derived)
    }
}
