import WebPolicyRuntime

/// Everything the audit read from an app: the facts of every file with the module-wide steps
/// done (subclass closure, constants resolved one hop), the property lists, and what could
/// not be read. The checks read this and the policy; `audit --inventory`
/// prints it.
public struct AppInventory: Sendable {
    public var facts: [AppFact]
    public var plists: [InfoPlist]
    /// The app's WKWebView subclasses, transitively (`class ReaderView: AppWebView`).
    public var webViewClasses: Set<String>
    public var problems: [ReadProblem]
    /// The Booleans the app declares, for the run-time conditions settings sit behind.
    public var flags: FlagTable
    /// The app's own functions that escape or JSON-encode values for script text.
    public var escapers: Set<String>
    /// Files read, by language.
    public var files: [FileFacts.Language: Int]
    /// Swift and Objective-C lines read, for the summary and the benchmark.
    public var lines: Int
    /// The app's iOS deployment target: the oldest one the most trusted kind of file sets
    /// (`DeploymentTargetSource`), and the file it came from.
    public var deploymentTarget: String?
    public var deploymentTargetFile: (path: String, source: DeploymentTargetSource)?

    public init(files fileFacts: [FileFacts], lines: Int = 0) {
        self.lines = lines
        var counts: [FileFacts.Language: Int] = [:]
        for file in fileFacts { counts[file.language, default: 0] += 1 }
        files = counts
        webViewClasses = Self.subclassClosure(of: "WKWebView", in: fileFacts.flatMap(\.classes))
        // WebKit for SwiftUI's page and view, unless the app has types of those names (a
        // `struct WebView: UIViewRepresentable` of its own).
        let swiftUIWebViews = Self.swiftUIWebViews.subtracting(fileFacts.flatMap(\.declaredTypes))
        let constants = ConstantTable(fileFacts.flatMap(\.constants))
        var facts: [AppFact] = []
        for file in fileFacts {
            facts += file.facts
            for construction in file.constructions {
                guard case .webView(let view) = construction.kind,
                      webViewClasses.contains(view.className) || (file.language == .swift && swiftUIWebViews.contains(view.className)) else { continue }
                facts.append(construction)
            }
        }
        var enumCases: [String: [String]] = [:]
        for file in fileFacts { enumCases.merge(file.enumCases) { first, _ in first } }
        facts = facts.flatMap { Self.expandCases($0, enumCases: enumCases) }
        let summaries = Dictionary(grouping: fileFacts.flatMap(\.openSummaries), by: \.parameter)
        facts = facts.flatMap { Self.resolveHandOff($0, summaries: summaries) }
        self.facts = facts.map { constants.resolve($0) }.sorted { left, right in
            (left.site.location.path, left.site.location.range.start) < (right.site.location.path, right.site.location.range.start)
        }
        plists = fileFacts.compactMap(\.plist)
        let declared = fileFacts.compactMap { file -> (String, DeploymentTargetSource, String)? in
            guard let source = DeploymentTargetSource(path: file.path) else { return nil }
            let oldest = file.deploymentTargets.min { Self.version($0).lexicographicallyPrecedes(Self.version($1)) }
            return oldest.map { (file.path, source, $0) }
        }
        if let best = declared.min(by: { left, right in
            left.1 != right.1 ? left.1 < right.1 : Self.version(left.2).lexicographicallyPrecedes(Self.version(right.2))
        }) {
            deploymentTarget = best.2
            deploymentTargetFile = (best.0, best.1)
        }
        problems = fileFacts.flatMap(\.problems)
        flags = FlagTable(fileFacts.flatMap(\.flags))
        escapers = Set(fileFacts.flatMap(\.escapers))
    }

    /// WebKit for SwiftUI (iOS 26): `WebPage`, and the SwiftUI `WebView` that shows one.
    static let swiftUIWebViews: Set<String> = ["WebPage", "WebView"]

    /// A handler registered once per case of a `String` enum (`Message.allCases.forEach`): one
    /// registration per case, named by its raw value. An enum the module does not declare
    /// stays one registration under a name the source does not spell out.
    static func expandCases(_ fact: AppFact, enumCases: [String: [String]]) -> [AppFact] {
        guard case .messageHandler(let handler) = fact.kind, handler.name.kind == .expression, let reference = handler.name.reference,
              reference.hasSuffix(".allCases") else { return [fact] }
        let type = String(reference.dropLast(".allCases".count).split(separator: ".").last ?? "")
        guard let cases = enumCases[type], !cases.isEmpty else { return [fact] }
        return cases.map { raw in
            var copy = fact, named = handler
            named.name = CodeValue(kind: .string, text: raw, constant: reference)
            copy.kind = .messageHandler(named)
            return copy
        }
    }

    /// A hand-off whose URL goes to a function of another file becomes the hand-offs that
    /// function makes (its file's summaries), a few functions deep; one that reaches no open
    /// call is no hand-off.
    static func resolveHandOff(_ fact: AppFact, summaries: [FunctionArgument: [OpenSummary]]) -> [AppFact] {
        guard case .handOff(let handOff) = fact.kind, handOff.pending != nil else { return [fact] }
        var resolved: [AppFact] = []
        var pending = [handOff]
        for _ in 0..<4 where !pending.isEmpty {
            var next: [HandOff] = []
            for partial in pending {
                guard let target = partial.pending else { continue }
                for summary in summaries[target] ?? [] {
                    let joined = HandOff(trigger: partial.trigger, schemes: partial.schemes.intersection(summary.schemes), openSite: summary.openSite,
                                         through: partial.through + [target.function] + summary.through, pending: summary.pending)
                    if joined.pending == nil {
                        var copy = fact
                        copy.kind = .handOff(joined)
                        resolved.append(copy)
                    } else {
                        next.append(joined)
                    }
                }
            }
            pending = next
        }
        return resolved
    }

    private static func version(_ text: String) -> [Int] { text.split(separator: ".").compactMap { Int($0) } }

    /// `base` and every class that inherits from it, across files.
    static func subclassClosure(of base: String, in classes: [ClassDeclaration]) -> Set<String> {
        var closure: Set<String> = [base]
        var changed = true
        while changed {
            changed = false
            for declaration in classes where !closure.contains(declaration.name) && declaration.supertypes.contains(where: closure.contains) {
                closure.insert(declaration.name)
                changed = true
            }
        }
        return closure
    }

    /// The facts in release builds, or in any build when `debug` code counts too.
    public func facts(where include: (AppFact) -> Bool) -> [AppFact] {
        facts.filter { $0.site.compiled != .never && include($0) }
    }
}

/// Constants of the whole module, by the names code uses for them. A name declared twice
/// with different values is ambiguous and stays unresolved: the audit never guesses.
struct ConstantTable {
    private var values: [String: CodeValue?] = [:]

    init(_ constants: [ConstantDeclaration]) {
        for constant in constants {
            for name in constant.names {
                if let existing = values[name] {
                    if existing != constant.value { values[name] = .some(nil) }
                } else {
                    values[name] = constant.value
                }
            }
        }
    }

    func value(of reference: String) -> CodeValue? {
        if let found = values[reference] { return found }
        // `Bridge.name` written `name` inside the type, or `Constants.Bridge.name` outside.
        let parts = reference.split(separator: ".")
        if parts.count > 2, let found = values[parts.suffix(2).joined(separator: ".")] { return found }
        return nil
    }

    func resolve(_ value: CodeValue) -> CodeValue {
        guard value.kind == .expression, let reference = value.reference, let found = self.value(of: reference) else { return value }
        var resolved = found
        resolved.constant = reference
        return resolved
    }

    func resolve(_ value: CodeValue?) -> CodeValue? { value.map(resolve) }

    func resolve(_ fact: AppFact) -> AppFact {
        var fact = fact
        switch fact.kind {
        case .messageHandler(var handler):
            handler.name = resolve(handler.name)
            handler.world = resolve(handler.world)
            fact.kind = .messageHandler(handler)
        case .schemeHandler(var handler):
            handler.scheme = resolve(handler.scheme)
            fact.kind = .schemeHandler(handler)
        case .setting(var setting):
            setting.value = resolve(setting.value)
            fact.kind = .setting(setting)
        case .load(var load):
            load.content = resolve(load.content)
            load.base = resolve(load.base)
            fact.kind = .load(load)
        case .api(var use):
            use.detail = resolve(use.detail)
            fact.kind = .api(use)
        case .script(var script):
            script.script = resolve(script.script)
            fact.kind = .script(script)
        case .webView, .delegate, .handOff:
            break
        }
        return fact
    }
}
