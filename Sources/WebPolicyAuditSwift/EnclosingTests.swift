// Built only with the SwiftAudit trait: without it this module is empty and needs no swift-syntax.
#if SwiftAudit
import SwiftSyntax
import WebPolicyAudit

/// The tests a statement runs behind, up to its function: the `if` it is in (or the `else` of),
/// the `guard`s before it, the `case` of a `switch`. Read two ways: as a run-time condition (is
/// the view inspectable in an App Store build?) and as the URL schemes that reach an open call.
struct EnclosingTests {
    enum Test {
        case conditions(ConditionElementListSyntax)
        /// A `switch` case: its subject and its string-literal labels, or nil for `default:`
        /// (then `others` are the labels of the other cases).
        case switchCase(subject: ExprSyntax, labels: [String]?, others: [String])
    }

    /// Each test, and whether it holds (true) or fails (false) where the statement runs.
    private(set) var tests: [(test: Test, holds: Bool)] = []

    init(of node: some SyntaxProtocol) {
        var child = Syntax(node)
        while let parent = child.parent {
            if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self) || parent.is(AccessorDeclSyntax.self) { break }
            if let ifExpression = parent.as(IfExprSyntax.self) {
                if child.id == ifExpression.body.id { tests.append((.conditions(ifExpression.conditions), true)) }
                if let elseBody = ifExpression.elseBody, child.id == elseBody.id { tests.append((.conditions(ifExpression.conditions), false)) }
            } else if let guardStatement = parent.as(GuardStmtSyntax.self), child.id == guardStatement.body.id {
                tests.append((.conditions(guardStatement.conditions), false))
            } else if let list = parent.as(CodeBlockItemListSyntax.self) {
                for item in list {
                    if item.id == child.id { break }
                    if let guardStatement = item.item.as(GuardStmtSyntax.self) { tests.append((.conditions(guardStatement.conditions), true)) }
                }
            } else if let switchCase = parent.as(SwitchCaseSyntax.self), let switchExpression = switchCase.parent?.parent?.as(SwitchExprSyntax.self) {
                let labels = Self.literalLabels(of: switchCase)
                let others = switchExpression.cases.compactMap { $0.as(SwitchCaseSyntax.self) }.filter { $0.id != switchCase.id }.flatMap { Self.literalLabels(of: $0) ?? [] }
                tests.append((.switchCase(subject: switchExpression.subject, labels: labels, others: others), true))
            }
            child = parent
        }
    }

    private static func literalLabels(of switchCase: SwitchCaseSyntax) -> [String]? {
        guard case .case(let label) = switchCase.label else { return nil }
        return label.caseItems.compactMap { item in
            item.pattern.as(ExpressionPatternSyntax.self)?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue?.lowercased()
        }
    }

    // MARK: Schemes

    /// The URL schemes for which the statement runs: tests of `….scheme` against literals,
    /// `canOpenURL`; every other test leaves the schemes as they were.
    var schemes: SchemeScope {
        var scope = SchemeScope.any
        for (test, holds) in tests {
            switch test {
            case .conditions(let conditions):
                let elements = conditions.compactMap { element -> ExprSyntax? in
                    if case .expression(let expression) = element.condition { return expression }
                    return nil
                }
                if holds {
                    for expression in elements { scope = scope.intersection(Self.schemes(of: expression)) }
                } else if elements.count == 1, conditions.count == 1 {
                    scope = scope.intersection(Self.negated(Self.schemes(of: elements[0])))
                }
            case .switchCase(let subject, let labels, let others):
                guard subject.trimmedDescription.contains("scheme") else { continue }
                scope = scope.intersection(labels.map { SchemeScope.only($0) } ?? .anyExcept(others))
            }
        }
        return scope
    }

    static func negated(_ scope: SchemeScope) -> SchemeScope {
        switch scope {
        case .only(let schemes): return .anyExcept(schemes)
        case .anyExcept(let schemes): return .only(schemes)
        case .any, .queried: return .any
        }
    }

    /// What one test says of the scheme: `url.scheme == "tel"`, `["http", "https"].contains(scheme)`,
    /// `scheme.hasPrefix("http")`, `canOpenURL(url)`, `!…`, `a && b`, `a || b`.
    static func schemes(of expression: ExprSyntax) -> SchemeScope {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first { return schemes(of: only.expression) }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" { return negated(schemes(of: prefix.expression)) }
        if let sequence = expression.as(SequenceExprSyntax.self) { return schemes(of: Array(sequence.elements)) }
        if let call = expression.as(FunctionCallExprSyntax.self), let name = FileIndex.calleeName(call) {
            let argument = call.arguments.first?.expression
            switch name {
            case "canOpenURL":
                return .queried
            case "contains":
                guard let argument, argument.trimmedDescription.contains("scheme"),
                      let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return .any }
                let literals = Self.stringLiterals(in: base)
                return literals.isEmpty ? .any : .only(literals.map { $0.lowercased() })
            case "hasPrefix":
                guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription,
                      base.contains("scheme") || base.contains("absoluteString"),
                      let prefix = argument?.as(StringLiteralExprSyntax.self)?.representedLiteralValue?.lowercased() else { return .any }
                let scheme = prefix.split(separator: ":").first.map(String.init) ?? prefix
                return scheme == "http" ? .only(["http", "https"]) : .only([scheme])
            default:
                return .any
            }
        }
        return .any
    }

    /// An operator sequence as the parser leaves it, flat: `||` binds loosest, then `&&`, then
    /// the comparisons.
    static func schemes(of elements: [ExprSyntax]) -> SchemeScope {
        if let parts = split(elements, on: "||") {
            var allowed: [String] = []
            for part in parts {
                guard case .only(let schemes) = schemes(of: part) else { return .any }
                allowed += schemes
            }
            return .only(Array(Set(allowed)).sorted())
        }
        if let parts = split(elements, on: "&&") { return parts.reduce(SchemeScope.any) { $0.intersection(schemes(of: $1)) } }
        if elements.count == 1 { return schemes(of: elements[0]) }
        guard elements.count == 3, let comparison = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text, comparison == "==" || comparison == "!=" else { return .any }
        let (left, right) = (elements[0], elements[2])
        let literal = left.as(StringLiteralExprSyntax.self)?.representedLiteralValue ?? right.as(StringLiteralExprSyntax.self)?.representedLiteralValue
        let other = left.is(StringLiteralExprSyntax.self) ? right : left
        guard let literal, other.trimmedDescription.contains("scheme") else { return .any }
        return comparison == "==" ? .only([literal.lowercased()]) : .anyExcept([literal.lowercased()])
    }

    /// The operands between each `op` of a flat sequence; nil when it has none.
    static func split(_ elements: [ExprSyntax], on op: String) -> [[ExprSyntax]]? {
        guard elements.contains(where: { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == op }) else { return nil }
        var parts: [[ExprSyntax]] = [[]]
        for element in elements {
            if element.as(BinaryOperatorExprSyntax.self)?.operator.text == op {
                parts.append([])
            } else {
                parts[parts.count - 1].append(element)
            }
        }
        return parts
    }

    /// `["http", "https"]`, `Set(["tel"])`: the string literals of an array written in place.
    private static func stringLiterals(in expression: ExprSyntax) -> [String] {
        var expression = expression
        if let call = expression.as(FunctionCallExprSyntax.self), let first = call.arguments.first?.expression { expression = first }
        guard let array = expression.as(ArrayExprSyntax.self) else { return [] }
        let literals = array.elements.compactMap { $0.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue }
        return literals.count == array.elements.count ? literals : []
    }

    // MARK: Run-time conditions

    /// The tests as one condition that must hold; nil where there are none.
    var condition: RuntimeCondition? {
        var terms: [ConditionTerm] = []
        var texts: [String] = []
        for (test, holds) in tests.reversed() {
            let term: ConditionTerm
            let text: String
            switch test {
            case .conditions(let conditions):
                // `let x = …` and `case …` test that a value exists or matches, not which build
                // runs: only Boolean tests count here.
                let tested = conditions.filter { element in
                    if case .optionalBinding = element.condition { return false }
                    if case .matchingPattern = element.condition { return false }
                    return true
                }
                guard !tested.isEmpty else { continue }
                let parts = tested.map { Self.term(of: $0.condition) }
                term = parts.count == 1 ? parts[0] : .and(parts)
                text = tested.map { $0.condition.trimmedDescription }.joined(separator: ", ")
            case .switchCase(let subject, _, _):
                term = .unknown(subject.trimmedDescription)
                text = "a case of switch \(subject.trimmedDescription)"
            }
            terms.append(holds ? term : .not(term))
            texts.append(holds ? text : "!(\(text))")
        }
        guard !terms.isEmpty else { return nil }
        return RuntimeCondition(text: texts.joined(separator: " && "), term: terms.count == 1 ? terms[0] : .and(terms))
    }

    static func term(of elements: [ExprSyntax], text: String) -> ConditionTerm {
        if let parts = split(elements, on: "||") { return .or(parts.map { term(of: $0, text: text) }) }
        if let parts = split(elements, on: "&&") { return .and(parts.map { term(of: $0, text: text) }) }
        if elements.count == 1 { return term(of: elements[0]) }
        if elements.count == 3, let comparison = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text, comparison == "==" || comparison == "!=",
           let literal = elements[2].as(BooleanLiteralExprSyntax.self) {
            let value = literal.literal.tokenKind == .keyword(.true)
            let inner = term(of: elements[0])
            return (comparison == "==") == value ? inner : .not(inner)
        }
        return .unknown(text)
    }

    static func term(of condition: ConditionElementSyntax.Condition) -> ConditionTerm {
        switch condition {
        case .expression(let expression): return term(of: expression)
        case .availability: return .constant(true)
        case .matchingPattern(let node): return .unknown(node.trimmedDescription)
        case .optionalBinding(let node): return .unknown(node.trimmedDescription)
        }
    }

    /// A Boolean expression as a condition the audit can evaluate for an App Store build.
    static func term(of expression: ExprSyntax) -> ConditionTerm {
        let text = expression.trimmedDescription
        if text.contains("appStoreReceiptURL"), text.contains("sandboxReceipt") {
            // `…lastPathComponent == "sandboxReceipt"`, `….path.contains("sandboxReceipt") == true`;
            // `!=` or `== false` is the opposite.
            let negative = text.contains("!=") || text.contains("== false") || text.hasPrefix("!")
            return negative ? .not(.sandboxReceipt) : .sandboxReceipt
        }
        if text.contains("processInfo.environment[") || text.contains("ProcessInfo().environment[") {
            let name = text.split(separator: "\"").dropFirst().first.map(String.init) ?? "?"
            return text.contains("== nil") ? .not(.environmentVariable(name)) : .environmentVariable(name)
        }
        if text.contains("processInfo.arguments.contains(") {
            let name = text.split(separator: "\"").dropFirst().first.map(String.init) ?? "?"
            return text.hasPrefix("!") ? .not(.environmentVariable(name)) : .environmentVariable(name)
        }
        if let literal = expression.as(BooleanLiteralExprSyntax.self) { return .constant(literal.literal.tokenKind == .keyword(.true)) }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first { return term(of: only.expression) }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" { return .not(term(of: prefix.expression)) }
        if let call = expression.as(FunctionCallExprSyntax.self), FileIndex.calleeName(call) == "_isDebugAssertConfiguration" { return .debugAssertConfiguration }
        if let sequence = expression.as(SequenceExprSyntax.self) { return term(of: Array(sequence.elements), text: text) }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return .reference(reference.baseName.text) }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil { return .reference(member.declName.baseName.text) }
        return .unknown(text)
    }
}
#endif
