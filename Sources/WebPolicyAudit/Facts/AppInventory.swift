import WebPolicyRuntime

/// Everything the audit read from an app: the facts of every file with the module-wide steps
/// done (subclass closure, constants resolved one hop), the property lists, and what could
/// not be read. The checks read this and the policy; `audit --format json` without a policy
/// prints it.
public struct AppInventory: Sendable {
    public var facts: [AppFact]
    public var plists: [InfoPlist]
    /// The app's WKWebView subclasses, transitively (`class ReaderView: AppWebView`).
    public var webViewClasses: Set<String>
    public var problems: [ReadProblem]
    /// Files read, by language.
    public var files: [FileFacts.Language: Int]
    /// Swift and Objective-C lines read, for the summary and the benchmark.
    public var lines: Int
    /// The oldest `IPHONEOS_DEPLOYMENT_TARGET` the app's projects and xcconfig files set.
    public var deploymentTarget: String?

    public init(files fileFacts: [FileFacts], lines: Int = 0) {
        self.lines = lines
        var counts: [FileFacts.Language: Int] = [:]
        for file in fileFacts { counts[file.language, default: 0] += 1 }
        files = counts
        webViewClasses = Self.subclassClosure(of: "WKWebView", in: fileFacts.flatMap(\.classes))
        let constants = ConstantTable(fileFacts.flatMap(\.constants))
        var facts: [AppFact] = []
        for file in fileFacts {
            facts += file.facts
            for construction in file.constructions {
                guard case .webView(let view) = construction.kind, webViewClasses.contains(view.className) else { continue }
                facts.append(construction)
            }
        }
        self.facts = facts.map { constants.resolve($0) }.sorted { left, right in
            (left.site.location.path, left.site.location.range.start) < (right.site.location.path, right.site.location.range.start)
        }
        plists = fileFacts.compactMap(\.plist)
        deploymentTarget = fileFacts.flatMap(\.deploymentTargets).min { left, right in
            left.split(separator: ".").compactMap { Int($0) }.lexicographicallyPrecedes(right.split(separator: ".").compactMap { Int($0) })
        }
        problems = fileFacts.flatMap(\.problems)
    }

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
        case .webView, .delegate:
            break
        }
        return fact
    }
}
