// Built only with the SwiftAudit trait: without it this module is empty and needs no swift-syntax.
#if SwiftAudit
import SwiftIfConfig
import SwiftParser
import SwiftSyntax
import WebPolicyAudit
import WebPolicyRuntime

/// One walk over a parsed Swift file that records facts, not findings (the checks never see a
/// tree). Without type information a call is known by its callee's name and its argument
/// labels — `add(_:name:)` and `add(_:contentWorld:name:)`, never a bare `add(` — which on
/// seven real apps found exactly the handler registrations (parsing-swift-for-audit.md §5.1).
final class SwiftFactCollector: SyntaxVisitor {
    private let bytes: [UInt8]
    private let path: String
    /// The line table, built when the file's first fact is recorded: most files have none.
    private lazy var locator = ByteLocator(path: path, bytes: bytes)
    /// The `#if` regions for a release and a debug build; nil for a file without `#if`
    /// (most files), where every node is active in both and the two walks are skipped.
    private let release: ConfiguredRegions?
    private let debug: ConfiguredRegions?
    private(set) var file: FileFacts
    private let tree: SourceFileSyntax
    /// Values followed through the file, for script splices and URLs handed to the system:
    /// made on the first such call (most files have none).
    private lazy var flow = ValueFlow(tree: tree) { [unowned self] start, end in self.locator.location(start, end) }

    private struct FunctionScope {
        var name: String
        var role: AppFact.DelegateMethod.Role?
        /// `let name = value` seen so far in the function, for one hop.
        var locals: [String: ExprSyntax] = [:]
        /// A `WKWebView.handlesURLScheme(_:)` test: a dynamic scheme is checked before use.
        var checksScheme = false
    }

    private var types: [String] = []
    /// The class a type's stored property is made from (`private let bridge = Bridge()`), by
    /// type and property: a handler registered as `add(bridge, name:)` is that class's.
    private var propertyClasses: [String: [String: String]] = [:]
    private var functions: [FunctionScope] = []
    private var previewDepth = 0

    init(path: String, bytes: [UInt8], tree: SourceFileSyntax) {
        self.bytes = bytes
        self.path = path
        let hasConditionals = bytes.withUnsafeBufferPointer { buffer in
            buffer.indices.dropLast(2).contains { buffer[$0] == UInt8(ascii: "#") && buffer[$0 + 1] == UInt8(ascii: "i") && buffer[$0 + 2] == UInt8(ascii: "f") }
        }
        release = hasConditionals ? tree.configuredRegions(in: IOSBuildConfiguration(debug: false)) : nil
        debug = hasConditionals ? tree.configuredRegions(in: IOSBuildConfiguration(debug: true)) : nil
        file = FileFacts(path: path, language: .swift)
        self.tree = tree
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Where facts are

    private func site(_ node: some SyntaxProtocol) -> FactSite {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        let releaseState = release?.isActive(node) ?? .active, debugState = debug?.isActive(node) ?? .active
        let compiled: FactSite.Compiled
        switch (releaseState == .active, debugState == .active) {
        case (true, true): compiled = .always
        case (false, true): compiled = .debugOnly
        case (true, false): compiled = .releaseOnly
        case (false, false): compiled = .never
        }
        // A finding spans its first line only: a multi-line call is reported where it starts.
        let location = locator.location(start, end)
        let clipped = location.range.end.line == location.range.start.line ? location
            : SourceLocation(path: location.path, range: SourceRange(start: location.range.start, end: SourcePosition(line: location.range.start.line, column: location.range.start.column + 1)))
        return FactSite(location: clipped, compiled: compiled, enclosingType: types.last, enclosingFunction: functions.last?.name, inPreview: previewDepth > 0)
    }

    private func record(_ kind: AppFact.Kind, _ node: some SyntaxProtocol) {
        file.facts.append(AppFact(kind, at: site(node)))
    }

    // MARK: Scopes

    /// The type's stored properties made from a class, read before its methods (a property
    /// may be declared after the method that registers it).
    private func readPropertyClasses(_ members: MemberBlockSyntax, of type: String) {
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, callee.first?.isUppercase == true else { continue }
                propertyClasses[type, default: [:]][name] = callee
            }
        }
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        readPropertyClasses(node.memberBlock, of: node.name.text)
        let supertypes = node.inheritanceClause?.inheritedTypes.map { Self.typeName($0.type) } ?? []
        file.classes.append(ClassDeclaration(name: node.name.text, supertypes: supertypes, site: site(node.name)))
        file.declaredTypes.append(node.name.text)
        types.append(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { types.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        readPropertyClasses(node.memberBlock, of: node.name.text)
        file.declaredTypes.append(node.name.text)
        types.append(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { types.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { types.append(Self.typeName(node.extendedType)); return .visitChildren }
    override func visitPost(_ node: ExtensionDeclSyntax) { types.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        file.declaredTypes.append(node.name.text)
        types.append(node.name.text)
        let rawString = node.inheritanceClause?.inheritedTypes.contains { Self.typeName($0.type) == "String" } ?? false
        if rawString {
            for member in node.memberBlock.members {
                guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in cases.elements {
                    let raw = element.rawValue.flatMap { $0.value.as(StringLiteralExprSyntax.self)?.representedLiteralValue } ?? element.name.text
                    file.constants.append(ConstantDeclaration(names: ["\(node.name.text).\(element.name.text)"], value: .string(raw)))
                    file.enumCases[node.name.text, default: []].append(raw)
                }
            }
        }
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { types.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { types.append(node.name.text); return .visitChildren }
    override func visitPost(_ node: ActorDeclSyntax) { types.removeLast() }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let labels = node.signature.parameterClause.parameters.map { $0.firstName.text }
        var scope = FunctionScope(name: node.name.text + "(" + labels.map { $0 + ":" }.joined() + ")")
        scope.role = Self.delegateRole(node, labels: labels)
        if let role = scope.role {
            var method = DelegateBody.read(node, role: role)
            method.ofWebPage = node.name.text == "decidePolicy"
            record(.delegate(method), node.name)
        }
        if let body = node.body, Self.returnsString(node), ValueFlow.namedLikeAnEscaper(node.name.text) || mayEscape(body) && (ValueFlow.escapesQuotes(body) || ValueFlow.encodesJSON(body)) {
            file.escapers.append(node.name.text)
        }
        functions.append(scope)
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { functions.removeLast() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        let labels = node.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined()
        functions.append(FunctionScope(name: "init(\(labels))"))
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) { functions.removeLast() }

    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { functions.append(FunctionScope(name: "accessor")); return .visitChildren }
    override func visitPost(_ node: AccessorBlockSyntax) { functions.removeLast() }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewDepth += 1 }
        return .visitChildren
    }
    override func visitPost(_ node: MacroExpansionDeclSyntax) { if node.macroName.text == "Preview" { previewDepth -= 1 } }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewDepth += 1 }
        return .visitChildren
    }
    override func visitPost(_ node: MacroExpansionExprSyntax) { if node.macroName.text == "Preview" { previewDepth -= 1 } }

    /// The delegate methods that decide: by name and labels, the second parameter's type
    /// telling an action from a response.
    private static func delegateRole(_ node: FunctionDeclSyntax, labels: [String]) -> AppFact.DelegateMethod.Role? {
        let parameters = Array(node.signature.parameterClause.parameters)
        switch node.name.text {
        case "webView":
            guard labels.count >= 2 else { return nil }
            let secondType = parameters[1].type.trimmedDescription
            if labels[1] == "decidePolicyFor", secondType.contains("NavigationAction") { return .decideNavigationAction }
            if labels[1] == "createWebViewWith" { return .createWebView }
            if labels[1] == "didReceive", secondType.contains("AuthenticationChallenge") { return .authenticationChallenge }
            if labels[1] == "requestMediaCapturePermissionFor" { return .mediaCapturePermission }
            if labels[1] == "requestDeviceOrientationAndMotionPermissionFor" { return .deviceOrientationPermission }
            return nil
        case "userContentController":
            return labels.count >= 2 && labels[1] == "didReceive" ? .receiveScriptMessage : nil
        case "decidePolicy":
            // WebKit for SwiftUI's `WebPage.NavigationDeciding.decidePolicy(for:preferences:)`.
            guard labels == ["for", "preferences"], parameters[0].type.trimmedDescription.contains("NavigationAction") else { return nil }
            return .decideNavigationAction
        default:
            return nil
        }
    }

    private static func typeName(_ type: TypeSyntax) -> String {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        return type.trimmedDescription
    }

    // MARK: Declarations

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        if functions.isEmpty { readFlags(node) }
        guard node.bindingSpecifier.tokenKind == .keyword(.let) else { return .visitChildren }
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { continue }
            if !functions.isEmpty {
                functions[functions.count - 1].locals[name] = value
                continue
            }
            // Only a literal (or literals joined by `+`) is a constant: anything else would be
            // spelled out as text to be dropped, for every property of every type.
            guard value.is(StringLiteralExprSyntax.self) || value.is(BooleanLiteralExprSyntax.self) || value.is(IntegerLiteralExprSyntax.self)
                    || value.is(FloatLiteralExprSyntax.self) || value.is(SequenceExprSyntax.self) else { continue }
            let classified = classify(value, hops: 1)
            guard classified.isKnown else { continue }
            var names = [name]
            if let type = types.last { names.append("\(type).\(name)") }
            file.constants.append(ConstantDeclaration(names: names, value: classified))
        }
        return .visitChildren
    }

    /// `var isProduction: Bool { … }`, `static let isBeta: Bool = …`: a Boolean the app tests
    /// elsewhere, with its value in a release build (`#if DEBUG` resolved).
    private func readFlags(_ node: VariableDeclSyntax) {
        for binding in node.bindings {
            // Read on every property of every type: the type's name token, not its description.
            guard binding.typeAnnotation?.type.as(IdentifierTypeSyntax.self)?.name.text == "Bool",
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            let value: ExprSyntax?
            if let initializer = binding.initializer?.value {
                value = initializer
            } else if let accessors = binding.accessorBlock {
                value = releaseExpression(of: accessors)
            } else {
                value = nil
            }
            guard let value else { continue }
            let condition = RuntimeCondition(text: CodeValue.abbreviated(value.trimmedDescription), term: EnclosingTests.term(of: value))
            file.flags.append(FlagDeclaration(name: name, value: condition, location: site(value).location))
        }
    }

    /// `-> String`, `-> String?`: only such a function can be an escaper of script text.
    private static func returnsString(_ node: FunctionDeclSyntax) -> Bool {
        guard var type = node.signature.returnClause?.type else { return false }
        if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
        return type.as(IdentifierTypeSyntax.self)?.name.text == "String"
    }

    /// Whether the body's bytes mention JSON encoding or a replacement at all, before its
    /// tokens are read: a byte search of the body's range, no strings made.
    private func mayEscape(_ body: CodeBlockSyntax) -> Bool {
        let start = body.position.utf8Offset, end = min(body.endPosition.utf8Offset, bytes.count)
        guard start < end else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            let range = UnsafeBufferPointer(rebasing: buffer[start..<end])
            return Self.contains(range, "JSON") || Self.contains(range, "replacingOccurrences")
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard haystack.count >= count else { return false }
        return needle.withUTF8Buffer { pattern in
            var index = 0
            while index <= haystack.count - count {
                if haystack[index] == pattern[0], haystack[index..<(index + count)].elementsEqual(pattern) { return true }
                index += 1
            }
            return false
        }
    }

    /// A getter's one expression in a release build: `#if DEBUG false #else expr #endif` is `expr`.
    private func releaseExpression(of accessors: AccessorBlockSyntax) -> ExprSyntax? {
        let items: CodeBlockItemListSyntax
        switch accessors.accessors {
        case .getter(let list): items = list
        case .accessors(let list):
            guard let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }), let body = getter.body else { return nil }
            items = body.statements
        }
        var active: [CodeBlockItemSyntax] = []
        func collect(_ list: CodeBlockItemListSyntax) {
            for item in list {
                guard let ifConfig = item.item.as(IfConfigDeclSyntax.self) else {
                    active.append(item)
                    continue
                }
                for clause in ifConfig.clauses {
                    guard case .statements(let statements) = clause.elements, let first = statements.first,
                          (release?.isActive(first) ?? .active) == .active else { continue }
                    collect(statements)
                }
            }
        }
        collect(items)
        guard active.count == 1, let only = active.first else { return nil }
        switch only.item {
        case .expr(let expression): return expression
        case .stmt(let statement): return statement.as(ReturnStmtSyntax.self)?.expression ?? statement.as(ExpressionStmtSyntax.self)?.expression
        case .decl: return nil
        }
    }

    // MARK: Names

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == "UIWebView" { record(.api(.init(.uiWebView)), node) }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        if name == "UIWebView" { record(.api(.init(.uiWebView)), node) }
        if let found = WebKitVocabulary.privateName(in: name), found == name { record(.api(.init(.privateAPI, detail: .string(name))), node) }
        return .visitChildren
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        for segment in node.segments {
            guard let content = segment.as(StringSegmentSyntax.self)?.content.text, let name = WebKitVocabulary.privateName(in: content) else { continue }
            record(.api(.init(.privateAPI, detail: .string(name))), node)
            break
        }
        return .visitChildren
    }

    // MARK: Assignments

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `a.b = c` is not folded: [MemberAccessExpr, AssignmentExpr, value] (§5.3).
        let elements = Array(node.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return .visitChildren }
        let target = elements[0], value = elements[2]
        if readSchemeHandlers(target: target, value: value, node) { return .visitChildren }
        let property: String
        var onCopy = false
        if let member = target.as(MemberAccessExprSyntax.self) {
            property = member.declName.baseName.text
            // `view.configuration.x = …`: `configuration` on a view returns a copy.
            if let base = member.base?.as(MemberAccessExprSyntax.self), base.declName.baseName.text == "configuration", base.base != nil {
                onCopy = true
            }
        } else if let reference = target.as(DeclReferenceExprSyntax.self) {
            property = reference.baseName.text
        } else {
            return .visitChildren
        }
        if property == "protocolClasses" {
            record(.api(.init(.urlProtocol)), node)
            return .visitChildren
        }
        guard let key = WebKitVocabulary.swiftSettings[property] else { return .visitChildren }
        var setting = AppFact.Setting(key: key, value: classify(value), target: target.trimmedDescription, onCopy: onCopy && key.isConfigurationScalar)
        setting.condition = EnclosingTests(of: node).condition
        if setting.value.boolValue == nil, !value.is(BooleanLiteralExprSyntax.self) {
            setting.valueCondition = RuntimeCondition(text: CodeValue.abbreviated(value.trimmedDescription), term: EnclosingTests.term(of: value))
        }
        record(.setting(setting), node)
        return .visitChildren
    }

    /// WebKit for SwiftUI's scheme handlers, a dictionary of the page's configuration:
    /// `configuration.urlSchemeHandlers[URLScheme("zim")!] = ZimHandler()`, or the whole
    /// dictionary at once (`= [URLScheme("zim")!: ZimHandler()]`).
    private func readSchemeHandlers(target: ExprSyntax, value: ExprSyntax, _ node: SequenceExprSyntax) -> Bool {
        func scheme(_ key: ExprSyntax) -> CodeValue {
            var key = key
            if let unwrapped = key.as(ForceUnwrapExprSyntax.self) { key = unwrapped.expression }
            if let call = key.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "URLScheme", let raw = call.arguments.first?.expression {
                return classify(raw)
            }
            return classify(key)
        }
        if let subscriptCall = target.as(SubscriptCallExprSyntax.self), let member = subscriptCall.calledExpression.as(MemberAccessExprSyntax.self),
           WebKitAPICatalogue.swiftProperty(member.declName.baseName.text)?.fact == .schemeHandler, let key = subscriptCall.arguments.first?.expression {
            record(.schemeHandler(.init(scheme: scheme(key), handler: handlerName(value), viaURLScheme: true)), node)
            return true
        }
        guard let member = target.as(MemberAccessExprSyntax.self), WebKitAPICatalogue.swiftProperty(member.declName.baseName.text)?.fact == .schemeHandler,
              let dictionary = value.as(DictionaryExprSyntax.self) else { return false }
        if case .elements(let elements) = dictionary.content {
            for element in elements { record(.schemeHandler(.init(scheme: scheme(element.key), handler: handlerName(element.value), viaURLScheme: true)), node) }
        }
        return true
    }

    // MARK: Calls

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name: String
        var base: ExprSyntax?
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            base = member.base
            // `WKWebView.init(frame:)`.
            if name == "init", let type = member.base?.as(DeclReferenceExprSyntax.self) {
                construction(type.baseName.text, node)
                return .visitChildren
            }
        } else if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else {
            return .visitChildren
        }
        if base == nil, WebKitVocabulary.selectorFunctions.contains(name), let literal = node.arguments.first?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue,
           let selector = WebKitVocabulary.privateSelector(literal, in: types.last) {
            record(.api(.init(.privateAPI, detail: .string(selector))), node)
            return .visitChildren
        }
        // Most calls of an app are none of WebKit's: leave before their arguments are listed.
        guard Self.isCallOfInterest(name) || (base == nil && name.utf8.first.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } == true) else {
            readPendingHandOff(node)
            return .visitChildren
        }
        let arguments = Array(node.arguments)
        let labels = arguments.map { $0.label?.text ?? "_" }
        func argument(_ label: String) -> ExprSyntax? { arguments.first { ($0.label?.text ?? "_") == label }?.expression }
        // Only a few calls ask what they are called on: spelled out lazily, since most calls
        // of an app are none of them.
        var baseText: String { base?.trimmedDescription ?? "" }

        if let (row, spelling) = WebKitAPICatalogue.swiftCall(name, labels: labels) {
            readWebKitCall(row, spelling, node, arguments: arguments, base: base)
            return .visitChildren
        }
        switch (name, labels) {
        case ("register", ["_", "as", "in"]), ("registerWithReply", ["_", "as", "in"]):
            // The runtime's ScriptMessageGate: the handler lives in its bridge's world.
            let handler = AppFact.MessageHandler(name: classify(argument("as")!), reply: name == "registerWithReply", throughGate: true)
            record(.messageHandler(handler), node)
        case ("register", ["in"]) where baseText.contains("SchemeHandlerPlan"):
            record(.schemeHandler(.init(scheme: nil)), node)
        case ("setValue", ["_", "forKey"]):
            let key = classify(argument("forKey")!)
            if key.kind == .string { record(.api(.init(.keyValueCoding, detail: key, receiver: base.map { $0.trimmedDescription })), node) }
        case ("registerClass", _) where baseText == "URLProtocol":
            record(.api(.init(.urlProtocol)), node)
        case ("canOpenURL", ["_"]):
            record(.api(.init(.canOpenURL, detail: classify(arguments[0].expression))), node)
        case ("open", _) where baseText.contains("UIApplication") || baseText.hasSuffix("application"):
            if let first = arguments.first {
                record(.api(.init(.openURL, detail: classify(first.expression))), node)
                readHandOff(node, url: first.expression)
            }
        case ("open", ["_", "options"]), ("open", ["_", "options", "completionHandler"]), ("openURL", ["_"]):
            // UIApplication's signature on a wrapper of the app's (`URLOpener.shared.open`), and
            // SwiftUI's `openURL` action.
            readHandOff(node, url: arguments[0].expression)
        case ("NavigationDecider", _):
            record(.api(.init(.runtimeNavigation)), node)
        default:
            if base == nil, let first = name.unicodeScalars.first, ("A"..."Z").contains(first) {
                construction(name, node)
            }
        }
        return .visitChildren
    }

    /// An open call: a hand-off when the URL is one the page chose; a summary for the module
    /// when it is a parameter whose callers are in other files.
    private func readHandOff(_ node: FunctionCallExprSyntax, url: ExprSyntax) {
        let origins = flow.origins(of: url, in: flow.frame(at: node))
        let schemes = EnclosingTests(of: node).schemes
        let openSite = site(node).location
        var triggers: Set<HandOff.Trigger> = []
        for origin in origins {
            if let trigger = origin.input.flatMap(Self.trigger), triggers.insert(trigger).inserted {
                record(.handOff(HandOff(trigger: trigger, schemes: schemes, openSite: openSite, through: origin.through)), node)
            }
            if let parameter = origin.parameter {
                file.openSummaries.append(OpenSummary(parameter: parameter, schemes: schemes, openSite: openSite, through: origin.through))
            }
        }
    }

    static func trigger(_ input: ValueOrigin.PageInput) -> HandOff.Trigger? {
        switch input {
        case .newWindow: return .newWindow
        case .navigation, .page: return .navigation
        case .message: return .message
        case .openedURL: return nil
        }
    }

    /// In a delegate that decides, a URL the page chose handed to a function of another file:
    /// a hand-off if that function opens it (resolved across the module).
    private func readPendingHandOff(_ node: FunctionCallExprSyntax) {
        guard let role = functions.last?.role, [.createWebView, .decideNavigationAction, .receiveScriptMessage].contains(role),
              let key = FileIndex.key(of: node), flow.isExternal(node) else { return }
        for (position, argument) in node.arguments.enumerated() where argument.label == nil {
            let expression = argument.expression
            guard expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self) || expression.is(ForceUnwrapExprSyntax.self)
                    || expression.is(OptionalChainingExprSyntax.self) else { continue }
            let inputs = Set(flow.origins(of: expression, in: flow.frame(at: node)).compactMap { $0.input.flatMap(Self.trigger) })
            for trigger in inputs.sorted(by: { $0.rawValue < $1.rawValue }) {
                record(.handOff(HandOff(trigger: trigger, schemes: EnclosingTests(of: node).schemes, pending: FunctionArgument(function: key, index: position))), node)
            }
        }
    }

    /// A handler's name; one registration per case when it is each case of a `String` enum in
    /// turn (`Message.allCases.forEach { add(self, name: $0.rawValue) }`, `for name in
    /// Message.allCases`): the name refers to `Message.allCases`, expanded across the module.
    private func handlerName(of expression: ExprSyntax) -> CodeValue {
        let value = classify(expression)
        guard value.kind == .expression else { return value }
        var variable = expression
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue", let base = member.base { variable = base }
        guard let name = variable.as(DeclReferenceExprSyntax.self)?.baseName.text else { return value }
        var current = Syntax(expression).parent
        while let node = current, !node.is(FunctionDeclSyntax.self) {
            if let closure = node.as(ClosureExprSyntax.self), let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
               let callee = call.calledExpression.as(MemberAccessExprSyntax.self), ["forEach", "map", "compactMap"].contains(callee.declName.baseName.text),
               let sequence = callee.base?.trimmedDescription, sequence.hasSuffix(".allCases") {
                let parameters = closure.signature?.parameterClause
                let named: Bool
                switch parameters {
                case .simpleInput(let list)?: named = list.first?.name.text == name
                case .parameterClause(let clause)?: named = clause.parameters.first.map { ($0.secondName ?? $0.firstName).text == name } ?? false
                case nil: named = name == "$0"
                }
                if named { return CodeValue(kind: .expression, text: expression.trimmedDescription, reference: sequence) }
            }
            if let loop = node.as(ForStmtSyntax.self), loop.pattern.trimmedDescription == name, loop.sequence.trimmedDescription.hasSuffix(".allCases") {
                return CodeValue(kind: .expression, text: expression.trimmedDescription, reference: loop.sequence.trimmedDescription)
            }
            current = node.parent
        }
        return value
    }

    /// The class whose instance handles a bridge's messages: `self` in a class, `Handler(…)`, a
    /// `let` holding one.
    private func handlerClass(_ expression: ExprSyntax) -> String? {
        let written = handlerName(expression)
        if written == "self" { return types.last }
        return written.first?.isUppercase == true && written.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) ? written : nil
    }

    /// The lower-case callee names the reader matches: the catalogue's, and the runtime's,
    /// Foundation's and UIKit's calls it reads besides.
    private static func isCallOfInterest(_ name: String) -> Bool {
        if WebKitAPICatalogue.isSwiftName(name) { return true }
        switch name {
        case "register", "registerWithReply", "setValue", "registerClass", "canOpenURL", "open", "openURL":
            return true
        default:
            return false
        }
    }

    /// A call of the WebKit API catalogue: the fact its row names, read from its arguments.
    private func readWebKitCall(_ row: WebKitAPICatalogue.Row, _ spelling: WebKitAPICatalogue.SwiftSpelling, _ node: FunctionCallExprSyntax,
                                arguments: [LabeledExprListSyntax.Element], base: ExprSyntax?) {
        func argument(_ label: String) -> ExprSyntax? { arguments.first { ($0.label?.text ?? "_") == label }?.expression }
        switch row.fact {
        case .messageHandler(let reply):
            guard let name = argument("name"), let first = arguments.first else { return }
            record(.messageHandler(AppFact.MessageHandler(name: handlerName(of: name), world: argument("contentWorld").map(classifyWorld), reply: reply,
                                                          handlerClass: handlerClass(first.expression))), node)
        case .schemeHandler:
            guard let scheme = argument("forURLScheme"), let first = arguments.first else { return }
            record(.schemeHandler(.init(scheme: classify(scheme), guarded: functions.last?.checksScheme ?? false, handler: handlerName(first.expression))), node)
        case .schemeCheck:
            if !functions.isEmpty { functions[functions.count - 1].checksScheme = true }
        case .load(let api):
            // The content first; the base URL or read access by its label.
            guard let first = arguments.first, let base = argument("baseURL") ?? argument("allowingReadAccessTo") else { return }
            let written = row.objectiveC.isEmpty ? spelling.written : nil
            record(.load(AppFact.Load(api: api, content: classify(first.expression), base: classify(base), spelling: written)), node)
        case .script:
            guard let first = arguments.first, first.label == nil else { return }
            let script = classify(first.expression)
            guard script.kind != .string else { return }
            record(.script(.init(api: spelling.name, script: script, splices: flow.scriptSplices(first.expression, at: node))), node)
        case .cookieStore:
            // WKHTTPCookieStore's, not Foundation's HTTPCookieStorage.
            guard base?.trimmedDescription.lowercased().contains("cookiestore") == true else { return }
            record(.api(.init(.cookieStore)), node)
        case .userScript:
            record(.api(.init(.userScript, detail: argument("forMainFrameOnly").map { classify($0) })), node)
        case .contentRuleList:
            record(.api(.init(.contentRuleList, detail: argument("forIdentifier").map { classify($0) })), node)
        }
    }

    /// A call of a type's initialiser, kept until the subclass closure says whether the type
    /// is a web view. It is managed when built with the runtime: `WKWebView(frame:policy:)`, or
    /// a configuration from `WKWebViewConfiguration(policy:)`, directly or one `let` away.
    private func construction(_ className: String, _ node: FunctionCallExprSyntax) {
        let labels = node.arguments.map { $0.label?.text }
        // SwiftUI's `WebView(page)` shows a page made elsewhere; only `WebView(url:)` makes its own.
        if className == "WebView", labels.first != "url" { return }
        let configuration = node.arguments.first { $0.label?.text == "configuration" }?.expression
        var managed = labels.contains(WebKitVocabulary.runtimeArgumentLabel)
        if let configuration, !managed {
            managed = Self.isRuntimeConfiguration(configuration)
            if !managed, let reference = configuration.as(DeclReferenceExprSyntax.self), let local = functions.last?.locals[reference.baseName.text] {
                managed = Self.isRuntimeConfiguration(local)
            }
        }
        let forNewWindow = functions.last?.role == .createWebView
        file.constructions.append(AppFact(.webView(.init(className: className, configuration: configuration?.trimmedDescription, managed: managed, forNewWindow: forNewWindow)), at: site(node)))
    }

    /// `AssetHandler()`, `AssetHandler(root: …)`, or a `let` holding one: its type's name.
    private func handlerName(_ expression: ExprSyntax) -> String {
        var expression = expression
        if let reference = expression.as(DeclReferenceExprSyntax.self), let local = functions.last?.locals[reference.baseName.text] { expression = local }
        // A stored property of the enclosing type made from a class (`bridge`, `self.bridge`).
        let property = expression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? expression.as(MemberAccessExprSyntax.self).flatMap { $0.base?.trimmedDescription == "self" ? $0.declName.baseName.text : nil }
        if let property, let type = types.last, let made = propertyClasses[type]?[property] { return made }
        if let call = expression.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            return callee.baseName.text
        }
        return expression.trimmedDescription
    }

    private static func isRuntimeConfiguration(_ expression: ExprSyntax) -> Bool {
        var expression = expression
        // `try WKWebViewConfiguration(policy:)`, `(…)`.
        if let tried = expression.as(TryExprSyntax.self) { expression = tried.expression }
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        let callee = call.calledExpression.trimmedDescription
        return (callee == WebKitVocabulary.runtimeConfigurationType || callee == WebKitVocabulary.runtimeConfigurationType + ".init")
            && call.arguments.first?.label?.text == WebKitVocabulary.runtimeArgumentLabel
    }

    // MARK: Values

    /// `.page`, `.defaultClient`, `WKContentWorld.world(name: "x")`.
    private func classifyWorld(_ expression: ExprSyntax) -> CodeValue {
        let text = expression.trimmedDescription
        if text == ".page" || text.hasSuffix("WKContentWorld.page") { return CodeValue(kind: .string, text: "page", constant: text) }
        if text == ".defaultClient" || text.hasSuffix("WKContentWorld.defaultClient") { return CodeValue(kind: .string, text: "client", constant: text) }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.first?.label?.text == "name",
           let name = call.arguments.first.map({ classify($0.expression) }), name.kind == .string {
            return CodeValue(kind: .string, text: name.text, constant: text)
        }
        return classify(expression)
    }

    private func classify(_ expression: ExprSyntax, hops: Int = 0) -> CodeValue {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            if let value = literal.representedLiteralValue { return .string(value) }
            return CodeValue(kind: Self.interpolationIsEncoded(literal) ? .encoded : .interpolated, text: expression.trimmedDescription)
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return .bool(boolean.literal.tokenKind == .keyword(.true)) }
        if expression.is(NilLiteralExprSyntax.self) { return CodeValue(kind: .nil, text: "nil") }
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self) {
            return CodeValue(kind: .number, text: expression.trimmedDescription)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            let concatenates = elements.contains { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" }
            let allLiterals = elements.allSatisfy { $0.is(BinaryOperatorExprSyntax.self) || $0.as(StringLiteralExprSyntax.self)?.representedLiteralValue != nil }
            if concatenates, elements.contains(where: { $0.is(StringLiteralExprSyntax.self) }) {
                if allLiterals {
                    return .string(elements.compactMap { $0.as(StringLiteralExprSyntax.self)?.representedLiteralValue }.joined())
                }
                return CodeValue(kind: .interpolated, text: expression.trimmedDescription)
            }
        }
        if let call = expression.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "String",
           call.arguments.first?.label?.text == "format" {
            return CodeValue(kind: .interpolated, text: expression.trimmedDescription)
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if hops == 0, let local = functions.last?.locals[name] {
                var value = classify(local, hops: 1)
                if value.kind == .expression { value = .expression(local.trimmedDescription, reference: value.reference) }
                value.constant = value.constant ?? name
                return value
            }
            return .expression(name, reference: name)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil, Self.isPlainName(expression) {
            var reference = expression.trimmedDescription
            if reference.hasSuffix(".rawValue") { reference.removeLast(".rawValue".count) }
            for prefix in ["self.", "Self."] where reference.hasPrefix(prefix) { reference.removeFirst(prefix.count) }
            return .expression(expression.trimmedDescription, reference: reference)
        }
        return .expression(expression.trimmedDescription)
    }

    /// Whether every value spliced into a script is safe there without type information: a
    /// number or Boolean literal, a value through a function whose name says it quotes or
    /// escapes, or JSON not wrapped in quotes again (audit-checks.md HZ4's "fine when").
    private static func interpolationIsEncoded(_ literal: StringLiteralExprSyntax) -> Bool {
        var before = ""
        for segment in literal.segments {
            if let text = segment.as(StringSegmentSyntax.self) {
                before = text.content.text
                continue
            }
            guard let spliced = segment.as(ExpressionSegmentSyntax.self) else { return false }
            let inner = spliced.expressions.trimmedDescription
            if spliced.expressions.count == 1, let only = spliced.expressions.first?.expression,
               only.is(IntegerLiteralExprSyntax.self) || only.is(FloatLiteralExprSyntax.self) || only.is(BooleanLiteralExprSyntax.self) { continue }
            let name = inner.lowercased()
            if ["escap", "quot", "stringliteral", "sanitiz"].contains(where: name.contains) { continue }
            let quoted = before.hasSuffix("'") || before.hasSuffix("\\\"") || before.hasSuffix("\"")
            if !quoted, ["json", "stringify", "encode"].contains(where: name.contains) { continue }
            return false
        }
        return true
    }

    /// `a`, `a.b`, `A.b.rawValue`: a name the module's constants may hold.
    private static func isPlainName(_ expression: ExprSyntax) -> Bool {
        if expression.is(DeclReferenceExprSyntax.self) { return true }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base { return isPlainName(base) }
        return false
    }
}

/// Reads Swift files for `webpolicy audit`.
public enum SwiftFactReader {
    public static func read(_ bytes: [UInt8], path: String) -> FileFacts {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        let collector = SwiftFactCollector(path: path, bytes: bytes, tree: tree)
        collector.walk(tree)
        var file = collector.file
        if tree.hasError {
            let locator = ByteLocator(path: path, bytes: bytes)
            // Where the parser first gave up: a token it had to invent, or one it could not place.
            let first = tree.tokens(viewMode: .all).first { $0.presence == .missing || $0.parent?.is(UnexpectedNodesSyntax.self) == true }
            let offset = first?.positionAfterSkippingLeadingTrivia.utf8Offset ?? 0
            file.problems.append(ReadProblem("this Swift file does not parse cleanly; facts were read from what did", at: locator.location(offset)))
        }
        return file
    }
}
#endif
