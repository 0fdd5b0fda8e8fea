// Built only with the SwiftAudit trait: without it this module is empty and needs no swift-syntax.
#if SwiftAudit
import SwiftSyntax

/// What one Swift file declares, for following values through it: its functions by name and
/// argument labels, the calls of each name, the properties of its types, and each function's
/// local names. Built on the first question (most files have nothing to follow), by one walk.
final class FileIndex {
    struct Parameter {
        /// The argument label (`_` when there is none).
        var label: String
        /// The name inside the body.
        var name: String
        var type: String
        var hasDefault: Bool
    }

    struct Function {
        /// `handleGetExternalAuth(_:)`, as calls and messages name it.
        var key: String
        var name: String
        var parameters: [Parameter]
        var node: FunctionDeclSyntax
    }

    private(set) var functions: [String: [Function]] = [:]
    private(set) var callsByName: [String: [FunctionCallExprSyntax]] = [:]
    /// A type's stored `let` / `var` with a value (a `var` with every value the file assigns
    /// it too), `static let`, and a computed property that is one expression: by name.
    private(set) var properties: [String: [ExprSyntax]] = [:]

    init(_ tree: SourceFileSyntax) {
        let walker = Walker()
        walker.walk(tree)
        walker.finish()
        for function in walker.functions { functions[function.key, default: []].append(function) }
        callsByName = walker.calls
        properties = walker.properties
    }

    /// The file's functions a call may be, by name and labels: labels omitted where the
    /// declaration has a default, trailing closures for the last parameters.
    func functions(calledBy call: FunctionCallExprSyntax) -> [Function] {
        guard let name = Self.calleeName(call) else { return [] }
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let trailing = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
        return functions.values.joined().filter { function in
            function.name == name && Self.argumentIndices(labels: labels, trailing: trailing, of: function) != nil
        }
    }

    /// For each argument of a call, the parameter it binds; nil when the labels do not fit.
    static func argumentIndices(labels: [String], trailing: Int, of function: Function) -> [Int]? {
        var indices: [Int] = []
        var parameter = 0
        for label in labels {
            while parameter < function.parameters.count, function.parameters[parameter].label != label {
                guard function.parameters[parameter].hasDefault else { return nil }
                parameter += 1
            }
            guard parameter < function.parameters.count else { return nil }
            indices.append(parameter)
            parameter += 1
        }
        let rest = function.parameters[parameter...]
        guard rest.count >= trailing, rest.dropLast(trailing).allSatisfy(\.hasDefault) else { return nil }
        return indices
    }

    /// The calls in this file of one of its functions, each with the argument bound to `parameter`.
    func callers(of function: Function, parameter: Int) -> [(call: FunctionCallExprSyntax, argument: ExprSyntax)] {
        (callsByName[function.name] ?? []).compactMap { call in
            let labels = call.arguments.map { $0.label?.text ?? "_" }
            let trailing = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
            guard let indices = Self.argumentIndices(labels: labels, trailing: trailing, of: function),
                  let position = indices.firstIndex(of: parameter) else { return nil }
            return (call, Array(call.arguments)[position].expression)
        }
    }

    /// `name` of `name(…)`, `a.b.name(…)`, `Type.init(…)` as `Type`.
    static func calleeName(_ call: FunctionCallExprSyntax) -> String? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            if name == "init", let base = member.base?.as(DeclReferenceExprSyntax.self) { return base.baseName.text }
            return name
        }
        return nil
    }

    /// `name(first:_:)` for a declaration.
    static func key(name: String, labels: [String]) -> String {
        name + "(" + labels.map { $0 + ":" }.joined() + ")"
    }

    /// A call's key as the declaration it calls would have it (defaulted arguments it leaves
    /// out cannot be known; trailing closures are unlabelled).
    static func key(of call: FunctionCallExprSyntax) -> String? {
        guard let name = calleeName(call) else { return nil }
        let trailing = Array(repeating: "_", count: (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count)
        return key(name: name, labels: call.arguments.map { $0.label?.text ?? "_" } + trailing)
    }

    private final class Walker: SyntaxVisitor {
        var functions: [Function] = []
        var calls: [String: [FunctionCallExprSyntax]] = [:]
        var properties: [String: [ExprSyntax]] = [:]

        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            let parameters = node.signature.parameterClause.parameters.map { parameter in
                Parameter(label: parameter.firstName.text, name: (parameter.secondName ?? parameter.firstName).text,
                          type: parameter.type.trimmedDescription, hasDefault: parameter.defaultValue != nil)
            }
            functions.append(Function(key: FileIndex.key(name: node.name.text, labels: parameters.map(\.label)), name: node.name.text, parameters: parameters, node: node))
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let name = FileIndex.calleeName(node) { calls[name, default: []].append(node) }
            return .visitChildren
        }

        /// Member `var`s, whose every assignment in the file is one of their values.
        var variables: Set<String> = []
        /// `x = …` and `self.x = …`, by the name assigned.
        var assignments: [String: [ExprSyntax]] = [:]

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            // Only a type's members: a function's locals are looked up in the function.
            guard node.parent?.is(MemberBlockItemSyntax.self) == true || node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true else { return .visitChildren }
            let isVariable = node.bindingSpecifier.tokenKind == .keyword(.var)
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                if let value = binding.initializer?.value {
                    properties[name, default: []].append(value)
                    if isVariable { variables.insert(name) }
                } else if let single = FileIndex.singleExpression(of: binding.accessorBlock) {
                    properties[name, default: []].append(single)
                } else if isVariable, binding.accessorBlock == nil {
                    variables.insert(name)
                }
            }
            return .visitChildren
        }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            // `a = b` is not folded: [target, AssignmentExpr, value].
            let elements = Array(node.elements)
            guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return .visitChildren }
            var target = elements[0]
            if let member = target.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                target = ExprSyntax(DeclReferenceExprSyntax(baseName: member.declName.baseName))
            }
            if let name = target.as(DeclReferenceExprSyntax.self)?.baseName.text { assignments[name, default: []].append(FileIndex.assignedValue(node, elements)) }
            return .visitChildren
        }

        /// A member `var` is what it starts as and whatever the file assigns it: one
        /// initialised with a literal is no literal once a method sets it to the page's title.
        func finish() {
            for name in variables { properties[name, default: []] += assignments[name] ?? [] }
        }
    }

    /// The value of `x = …`: the one expression after `=`, or — for `x = a ?? b`, whose
    /// sequence is not folded — the whole assignment, which ValueFlow reads past its `=`.
    static func assignedValue(_ node: SequenceExprSyntax, _ elements: [ExprSyntax]) -> ExprSyntax {
        elements.count == 3 ? elements[2] : ExprSyntax(node)
    }

    /// `{ expr }` or `{ return expr }` of a computed property or a one-line function.
    static func singleExpression(of accessors: AccessorBlockSyntax?) -> ExprSyntax? {
        guard let accessors else { return nil }
        switch accessors.accessors {
        case .getter(let items): return singleExpression(of: items)
        case .accessors(let list):
            guard let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }), let body = getter.body else { return nil }
            return singleExpression(of: body.statements)
        }
    }

    static func singleExpression(of items: CodeBlockItemListSyntax) -> ExprSyntax? {
        guard items.count == 1, let item = items.first else { return nil }
        switch item.item {
        case .expr(let expression): return expression
        case .stmt(let statement): return statement.as(ReturnStmtSyntax.self)?.expression
                ?? statement.as(ExpressionStmtSyntax.self)?.expression
        case .decl: return nil
        }
    }
}

/// A function body's own names — `let`, `var`, `if let`, `guard let`, assignments, loop and
/// closure parameters — each with the values it is given and the stretch of code it is
/// visible in, so a name is read as the code at that place sees it (an `if let url = …` inside
/// a function that has another `url` is that one).
struct LocalNames {
    enum Value {
        case value(ExprSyntax, declaredType: String?)
        /// A closure's or a loop's parameter: a value the file does not show.
        case opaque(String)
    }

    struct Definition {
        var value: Value
        /// Where it is defined, and the code that sees it (utf8 offsets).
        var position: Int
        var scope: Range<Int>
        /// `x = …`: another value of a name declared elsewhere.
        var isAssignment = false
    }

    private(set) var names: [String: [Definition]] = [:]

    /// The names of a function's (or initialiser's, or accessor's) body; the declaration
    /// itself is not walked, since a nested function's names are not its own.
    init(_ scope: Syntax) {
        let walker = Walker()
        if let function = scope.as(FunctionDeclSyntax.self) {
            if let body = function.body { walker.walk(body) }
        } else if let initializer = scope.as(InitializerDeclSyntax.self) {
            if let body = initializer.body { walker.walk(body) }
        } else {
            walker.walk(scope)
        }
        names = walker.names
    }

    /// The values `name` may hold at `offset`: the innermost definition that sees it, and the
    /// assignments to the name between it and there. Every definition when none sees it.
    func values(of name: String, at offset: Int) -> [Value]? {
        guard let all = names[name] else { return nil }
        let visible = all.filter { !$0.isAssignment && $0.scope.contains(offset) && $0.position <= offset }
        guard let innermost = visible.max(by: { $0.scope.lowerBound < $1.scope.lowerBound }) else { return all.map(\.value) }
        let assigned = all.filter { $0.isAssignment && innermost.scope.contains($0.position) && $0.position < offset }
        return [innermost.value] + assigned.map(\.value)
    }

    private final class Walker: SyntaxVisitor {
        var names: [String: [Definition]] = [:]

        init() { super.init(viewMode: .sourceAccurate) }

        private func add(_ name: String, _ value: Value, at node: some SyntaxProtocol, scope: Range<Int>, isAssignment: Bool = false) {
            names[name, default: []].append(Definition(value: value, position: node.positionAfterSkippingLeadingTrivia.utf8Offset, scope: scope, isAssignment: isAssignment))
        }

        /// From after `node` to the end of the block it is a statement of.
        private static func restOfBlock(after node: some SyntaxProtocol) -> Range<Int> {
            var current: Syntax? = Syntax(node)
            while let candidate = current, !candidate.is(CodeBlockItemListSyntax.self) { current = candidate.parent }
            let end = current?.endPosition.utf8Offset ?? Int.max
            return node.endPosition.utf8Offset..<max(end, node.endPosition.utf8Offset)
        }

        override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
            guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
            let scope = Self.restOfBlock(after: node)
            if let value = node.initializer?.value {
                add(name, .value(value, declaredType: node.typeAnnotation?.type.trimmedDescription), at: node, scope: scope)
            } else if let type = node.typeAnnotation?.type.trimmedDescription {
                add(name, .opaque("declared as \(type)"), at: node, scope: scope)
            }
            return .visitChildren
        }

        override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
            guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value else { return .visitChildren }
            // `if let` sees its body (and the conditions after it); `guard let` the rest of its block.
            var scope = node.endPosition.utf8Offset..<Int.max
            var current = node.parent
            while let candidate = current {
                if let ifExpression = candidate.as(IfExprSyntax.self) {
                    scope = node.endPosition.utf8Offset..<ifExpression.body.endPosition.utf8Offset
                    break
                }
                if let whileStatement = candidate.as(WhileStmtSyntax.self) {
                    scope = node.endPosition.utf8Offset..<whileStatement.body.endPosition.utf8Offset
                    break
                }
                if let guardStatement = candidate.as(GuardStmtSyntax.self) {
                    scope = Self.restOfBlock(after: guardStatement)
                    break
                }
                current = candidate.parent
            }
            add(name, .value(value, declaredType: node.typeAnnotation?.type.trimmedDescription), at: node, scope: scope)
            return .visitChildren
        }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            let elements = Array(node.elements)
            if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self), let name = elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text {
                add(name, .value(FileIndex.assignedValue(node, elements), declaredType: nil), at: node, scope: node.position.utf8Offset..<Int.max, isAssignment: true)
            }
            return .visitChildren
        }

        override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
            let scope = node.body.position.utf8Offset..<node.body.endPosition.utf8Offset
            for token in node.pattern.tokens(viewMode: .sourceAccurate) where token.tokenKind.isIdentifier {
                add(token.text, .opaque("a loop's variable"), at: node.body, scope: scope)
            }
            return .visitChildren
        }

        override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
            addClosureParameter(node.name.text, node)
            return .visitChildren
        }

        override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
            addClosureParameter((node.secondName ?? node.firstName).text, node)
            return .visitChildren
        }

        private func addClosureParameter(_ name: String, _ node: some SyntaxProtocol) {
            var current = node.parent
            while let candidate = current, !candidate.is(ClosureExprSyntax.self) { current = candidate.parent }
            let scope = (current?.position.utf8Offset ?? 0)..<(current?.endPosition.utf8Offset ?? Int.max)
            add(name, .opaque("a closure's parameter"), at: node, scope: scope)
        }

        // A nested function's names are its own.
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
}

extension TokenKind {
    var isIdentifier: Bool {
        if case .identifier = self { return true }
        return false
    }
}
#endif
