// Built only with the SwiftAudit trait: without it this module is empty and needs no swift-syntax.
#if SwiftAudit
import SwiftSyntax
import WebPolicyAudit
import WebPolicyRuntime

/// Where a value in one Swift file comes from, following it through the file's own locals,
/// properties and functions — a few calls deep, into a helper's return and back out to a
/// helper's callers — without type information. Each answer is a set of origins: literals,
/// numbers, escaped or JSON-encoded values, what the page chose (a script message's body, a
/// navigation's URL, the page's title), a URL opened from outside, or what the file does not
/// show. It serves the script-splice and hand-off facts; every other fact is read directly.
final class ValueFlow {
    private let tree: SourceFileSyntax
    private let locate: (Int, Int) -> WebPolicyRuntime.SourceLocation
    private lazy var index = FileIndex(tree)
    private var localNames: [SyntaxIdentifier: LocalNames] = [:]
    /// Expressions being followed, so a value defined through itself ends.
    private var following: Set<SyntaxIdentifier> = []

    static let maximumDepth = 6
    static let maximumCallers = 8

    init(tree: SourceFileSyntax, locate: @escaping (Int, Int) -> WebPolicyRuntime.SourceLocation) {
        self.tree = tree
        self.locate = locate
    }

    // MARK: Frames

    /// The function a value is read in, and — when it was entered through one of its calls —
    /// the arguments of that call, in the caller's frame.
    final class Frame {
        let scope: Syntax?
        let function: FileIndex.Function?
        let arguments: [String: (ExprSyntax, Frame)]
        let depth: Int
        /// The file's functions entered so far.
        let through: [String]

        init(scope: Syntax?, function: FileIndex.Function?, arguments: [String: (ExprSyntax, Frame)] = [:], depth: Int = 0, through: [String] = []) {
            self.scope = scope
            self.function = function
            self.arguments = arguments
            self.depth = depth
            self.through = through
        }
    }

    /// The frame of the function (or initialiser, or accessor) a node is in.
    func frame(at node: some SyntaxProtocol) -> Frame {
        var current: Syntax? = Syntax(node)
        while let candidate = current {
            if let function = candidate.as(FunctionDeclSyntax.self) {
                return Frame(scope: candidate, function: index.functions[Self.key(of: function)]?.first { $0.node.id == function.id })
            }
            if candidate.is(InitializerDeclSyntax.self) || candidate.is(AccessorDeclSyntax.self) || candidate.is(AccessorBlockSyntax.self) {
                return Frame(scope: candidate, function: nil)
            }
            current = candidate.parent
        }
        return Frame(scope: nil, function: nil)
    }

    /// A call of no function this file declares.
    func isExternal(_ call: FunctionCallExprSyntax) -> Bool { index.functions(calledBy: call).isEmpty }

    static func key(of function: FunctionDeclSyntax) -> String {
        FileIndex.key(name: function.name.text, labels: function.signature.parameterClause.parameters.map { $0.firstName.text })
    }

    private func names(in frame: Frame) -> LocalNames? {
        guard let scope = frame.scope else { return nil }
        if let known = localNames[scope.id] { return known }
        let names = LocalNames(scope)
        localNames[scope.id] = names
        return names
    }

    private func location(_ node: some SyntaxProtocol) -> WebPolicyRuntime.SourceLocation {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let location = locate(start, node.endPositionBeforeTrailingTrivia.utf8Offset)
        guard location.range.end.line != location.range.start.line else { return location }
        return WebPolicyRuntime.SourceLocation(path: location.path, range: WebPolicyRuntime.SourceRange(start: location.range.start, end: WebPolicyRuntime.SourcePosition(line: location.range.start.line, column: location.range.start.column + 1)))
    }

    // MARK: Origins

    func origins(of expression: ExprSyntax, in frame: Frame) -> [ValueOrigin] {
        guard frame.depth <= Self.maximumDepth else { return [ValueOrigin(.unknown, Self.abbreviated(expression), through: frame.through)] }
        guard following.insert(expression.id).inserted else { return [] }
        defer { following.remove(expression.id) }
        let found = Self.deduplicated(originsUnchecked(of: expression, in: frame))
        return found.isEmpty ? [ValueOrigin(.unknown, Self.abbreviated(expression), through: frame.through)] : found
    }

    private func originsUnchecked(of expression: ExprSyntax, in frame: Frame) -> [ValueOrigin] {
        let here = { (kind: ValueOrigin.Kind, detail: String) in [ValueOrigin(kind, detail, site: self.location(expression), through: frame.through)] }
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            let spliced = literal.segments.compactMap { $0.as(ExpressionSegmentSyntax.self)?.expressions.first?.expression }
            return spliced.isEmpty ? here(.literal, "a string literal") : spliced.flatMap { origins(of: $0, in: frame) }
        }
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self) || expression.is(BooleanLiteralExprSyntax.self) {
            return here(.number, "a literal")
        }
        if expression.is(NilLiteralExprSyntax.self) { return here(.literal, "nil") }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return origins(of: only.expression, in: frame)
        }
        if let inner = Self.unwrapped(expression) { return origins(of: inner, in: frame) }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self) {
            return ["!", "-", "+"].contains(prefix.operator.text) ? here(.number, "a Boolean or number") : origins(of: prefix.expression, in: frame)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) { return origins(of: sequence, in: frame) }
        if let ternary = expression.as(TernaryExprSyntax.self) {
            return origins(of: ternary.thenExpression, in: frame) + origins(of: ternary.elseExpression, in: frame)
        }
        if let array = expression.as(ArrayExprSyntax.self) { return array.elements.flatMap { origins(of: $0.expression, in: frame) } }
        if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) { return derived(from: subscriptCall.calledExpression, expression, in: frame, call: nil) }
        if let member = expression.as(MemberAccessExprSyntax.self) { return origins(of: member, in: frame) }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return origins(of: reference, in: frame) }
        if let call = expression.as(FunctionCallExprSyntax.self) { return origins(of: call, in: frame) }
        if expression.is(ClosureExprSyntax.self) { return here(.unknown, "a closure") }
        return here(.unknown, Self.abbreviated(expression))
    }

    /// `try x`, `await x`, `x!`, `x?`, `x as? T`'s x.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax? {
        if let node = expression.as(TryExprSyntax.self) { return node.expression }
        if let node = expression.as(AwaitExprSyntax.self) { return node.expression }
        if let node = expression.as(ForceUnwrapExprSyntax.self) { return node.expression }
        if let node = expression.as(OptionalChainingExprSyntax.self) { return node.expression }
        if let node = expression.as(PostfixOperatorExprSyntax.self) { return node.expression }
        return nil
    }

    /// An operator sequence as the parser leaves it (unfolded): a ternary takes either branch,
    /// `??` either side, `+` joins its operands, a comparison or logic is a Boolean, other
    /// arithmetic a number, a cast its operand.
    private func origins(of sequence: SequenceExprSyntax, in frame: Frame) -> [ValueOrigin] {
        var elements = Array(sequence.elements)
        // `x = a ?? b`, kept whole as one of x's values (`FileIndex`): the value is what
        // follows the `=`.
        if elements.count > 3, elements[1].is(AssignmentExprSyntax.self) { elements.removeFirst(2) }
        let number = [ValueOrigin(.number, "a Boolean or number", site: location(sequence), through: frame.through)]
        if let ternary = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }) {
            let branches = [elements[ternary].as(UnresolvedTernaryExprSyntax.self)!.thenExpression] + elements[(ternary + 1)...].filter { !$0.is(BinaryOperatorExprSyntax.self) }
            return branches.flatMap { origins(of: $0, in: frame) }
        }
        let operators = elements.compactMap { $0.as(BinaryOperatorExprSyntax.self)?.operator.text }
        if elements.contains(where: { $0.is(AssignmentExprSyntax.self) }) { return [] }
        if elements.count == 3, elements[1].is(UnresolvedAsExprSyntax.self) {
            if Self.isNumeric(elements[2].trimmedDescription) { return number }
            return origins(of: elements[0], in: frame)
        }
        if operators.contains(where: { ["==", "!=", "<", ">", "<=", ">=", "&&", "||", "===", "!=="].contains($0) }) { return number }
        let operands = elements.filter { !$0.is(BinaryOperatorExprSyntax.self) && !$0.is(UnresolvedAsExprSyntax.self) && !$0.is(TypeExprSyntax.self) }
        if operators.allSatisfy({ $0 == "+" || $0 == "??" }) { return operands.flatMap { origins(of: $0, in: frame) } }
        return number
    }

    private func origins(of member: MemberAccessExprSyntax, in frame: Frame) -> [ValueOrigin] {
        let name = member.declName.baseName.text
        let site = location(member)
        guard let base = member.base else { return [ValueOrigin(.literal, "a case (.\(name))", site: site, through: frame.through)] }
        if Self.numericMembers.contains(name) { return [ValueOrigin(.number, "a number (\(name))", site: site, through: frame.through)] }
        let baseText = base.trimmedDescription
        if name == "rawValue", let first = baseText.first, first.isUppercase { return [ValueOrigin(.literal, "an enum's raw value", site: site, through: frame.through)] }
        if ["title", "url", "URL"].contains(name), baseText.lowercased().hasSuffix("webview") || baseText.lowercased().hasSuffix("page") {
            return [ValueOrigin(.page, "the page's \(name == "title" ? "title" : "URL"): \(Self.abbreviated(ExprSyntax(member)))", site: site, through: frame.through, input: .page)]
        }
        // `self.x`, `Self.x`, `Type.x`: a property of the file's types.
        if baseText == "self" || baseText == "Self" || (base.is(DeclReferenceExprSyntax.self) && baseText.first?.isUppercase == true) {
            if let values = index.properties[name] {
                let inner = Frame(scope: nil, function: nil, depth: frame.depth + 1, through: frame.through)
                return values.flatMap { origins(of: $0, in: self.frame(for: $0, inheriting: inner)) }
            }
            let what = baseText == "self" || baseText == "Self" ? ", a property the file does not set" : ""
            return [ValueOrigin(.unknown, "\(Self.abbreviated(ExprSyntax(member)))\(what)", site: site, through: frame.through)]
        }
        return derived(from: base, ExprSyntax(member), in: frame, call: nil)
    }

    /// A value read off another (`a.b`, `a[k]`, `a.f()`): what the page chose stays the
    /// page's; a value the file does not show stays unknown, named as written.
    private func derived(from base: ExprSyntax, _ whole: ExprSyntax, in frame: Frame, call: String?) -> [ValueOrigin] {
        let baseSite = location(base)
        return origins(of: base, in: frame).map { origin in
            var origin = origin
            if let call { origin.calls.append(call) }
            switch origin.kind {
            case .page, .openedURL:
                // Read straight off the input (`message.body`): name what was read, where.
                if origin.site == baseSite, let input = origin.input {
                    origin.detail = "\(input.phrase): \(Self.abbreviated(whole))"
                    origin.site = location(whole)
                }
                return origin
            case .unknown:
                // Read off something the file does not show: name the whole read, not its root.
                if origin.site == baseSite, origin.parameter == nil {
                    origin.detail = Self.abbreviated(whole)
                    origin.site = location(whole)
                }
                return origin
            case .literal, .number: return origin
            case .escaped, .json:
                // Read again, it is no longer the escaped text itself.
                return ValueOrigin(.unknown, Self.abbreviated(whole), site: location(whole), through: frame.through, calls: origin.calls)
            }
        }
    }

    private func frame(for expression: ExprSyntax, inheriting frame: Frame) -> Frame {
        let found = self.frame(at: expression)
        return Frame(scope: found.scope, function: found.function, depth: frame.depth, through: frame.through)
    }

    private func origins(of reference: DeclReferenceExprSyntax, in frame: Frame) -> [ValueOrigin] {
        let name = reference.baseName.text
        let site = location(reference)
        if name == "self" { return [ValueOrigin(.unknown, "self", site: site, through: frame.through)] }
        // A parameter bound by the call this frame was entered through.
        if let (argument, caller) = frame.arguments[name] { return origins(of: argument, in: caller) }
        if let definitions = names(in: frame)?.values(of: name, at: reference.positionAfterSkippingLeadingTrivia.utf8Offset) {
            return definitions.flatMap { definition -> [ValueOrigin] in
                switch definition {
                case .value(let value, let type):
                    if let type, Self.isNumeric(type) { return [ValueOrigin(.number, "\(name): \(type)", site: location(value), through: frame.through)] }
                    return origins(of: value, in: frame).map { origin in
                        var origin = origin
                        if origin.site == nil { origin.site = location(value) }
                        return origin
                    }
                case .opaque(let what):
                    return [ValueOrigin(.unknown, "\(name), \(what)", site: site, through: frame.through)]
                }
            }
        }
        if let function = frame.function, let position = function.parameters.firstIndex(where: { $0.name == name }) {
            return origins(ofParameter: position, of: function, in: frame, site: site)
        }
        if let values = index.properties[name] {
            let inner = Frame(scope: nil, function: nil, depth: frame.depth + 1, through: frame.through)
            return values.flatMap { origins(of: $0, in: self.frame(for: $0, inheriting: inner)) }
        }
        return [ValueOrigin(.unknown, name, site: site, through: frame.through)]
    }

    /// A parameter: by its declared type when that says (a script message, a navigation, a
    /// number), else the arguments the file's own calls pass.
    private func origins(ofParameter position: Int, of function: FileIndex.Function, in frame: Frame, site: WebPolicyRuntime.SourceLocation) -> [ValueOrigin] {
        let parameter = function.parameters[position]
        if let input = Self.pageInput(type: parameter.type, function: function) {
            return [ValueOrigin(input == .openedURL ? .openedURL : .page, input.phrase + " (\(parameter.name))", site: site, through: frame.through, input: input)]
        }
        if Self.isNumeric(parameter.type) { return [ValueOrigin(.number, "\(parameter.name): \(parameter.type)", site: site, through: frame.through)] }
        let callers = index.callers(of: function, parameter: position).prefix(Self.maximumCallers)
        guard !callers.isEmpty else {
            return [ValueOrigin(.unknown, "\(parameter.name), a parameter of \(function.key), called from outside this file", site: site, through: frame.through,
                                parameter: FunctionArgument(function: function.key, index: position))]
        }
        return callers.flatMap { caller in
            let callerFrame = self.frame(at: caller.call)
            let entered = Frame(scope: callerFrame.scope, function: callerFrame.function, depth: frame.depth + 1, through: [function.key] + frame.through)
            return origins(of: caller.argument, in: entered)
        }
    }

    private func origins(of call: FunctionCallExprSyntax, in frame: Frame) -> [ValueOrigin] {
        let site = location(call)
        let here = { (kind: ValueOrigin.Kind, detail: String) in [ValueOrigin(kind, detail, site: site, through: frame.through)] }
        guard let name = FileIndex.calleeName(call) else { return here(.unknown, Self.abbreviated(ExprSyntax(call))) }
        let arguments = Array(call.arguments)
        let labels = arguments.map { $0.label?.text ?? "_" }
        let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        let baseText = base?.trimmedDescription ?? ""
        switch (name, labels.first) {
        case ("String", "reflecting"):
            return here(.escaped, "String(reflecting:), a quoted and escaped literal")
        case ("String", "format"):
            return origins(ofFormat: call, in: frame)
        case ("String", "data"), ("String", "decoding"), ("String", "describing"), ("String", "_"):
            return arguments.first.map { origins(of: $0.expression, in: frame) } ?? []
        case ("URL", "string"), ("NSURL", "string"), ("URLComponents", "string"):
            // A URL made from text is whoever chose the text — a message's body, a page's link —
            // unless the source writes its scheme (`"https://maps.apple.com/?ll=\(place)"`: the
            // page picks a query, not which app opens it).
            guard let text = arguments.first?.expression else { return [] }
            if let literal = text.as(StringLiteralExprSyntax.self), let first = literal.segments.first?.as(StringSegmentSyntax.self),
               Self.startsWithScheme(first.content.text) {
                return here(.literal, "a URL whose scheme the source writes")
            }
            return origins(of: text, in: frame)
        case ("data", "withJSONObject") where baseText.hasSuffix("JSONSerialization"):
            return here(.json, "JSON from JSONSerialization")
        case ("encode", _) where baseText.contains("JSONEncoder"):
            return here(.json, "JSON from JSONEncoder")
        default:
            break
        }
        if Self.numericFunctions.contains(name) { return here(.number, "a number (\(name))") }
        if Self.namedLikeAnEscaper(name) { return here(.escaped, "through \(name), which its name says escapes") }
        // One of the file's own functions: what it does to a value, or what it returns.
        if let function = index.functions(calledBy: call).first {
            if let body = function.node.body {
                if Self.escapesQuotes(body) { return here(.escaped, "through \(function.key), which escapes quotes") }
                if Self.encodesJSON(body) { return here(.json, "through \(function.key), which encodes JSON") }
            }
            return origins(returnedBy: function, call: call, in: frame)
        }
        if let base {
            if name == "replacingOccurrences", let replaced = arguments.first?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue,
               ["'", "\"", "\\"].contains(replaced) {
                return here(.escaped, "with its quotes replaced")
            }
            return derived(from: base, ExprSyntax(call), in: frame, call: name)
        }
        return [ValueOrigin(.unknown, Self.abbreviated(ExprSyntax(call)), site: site, through: frame.through, calls: [name])]
    }

    /// The file's function called: its return values with its parameters bound to the call's
    /// arguments (in the caller's frame).
    private func origins(returnedBy function: FileIndex.Function, call: FunctionCallExprSyntax, in frame: Frame) -> [ValueOrigin] {
        let entered = enter(function, through: call, from: frame)
        let returned = Self.returnedExpressions(of: function.node)
        guard !returned.isEmpty else { return [ValueOrigin(.unknown, "what \(function.key) returns", site: location(call), through: frame.through)] }
        return returned.flatMap { origins(of: $0, in: entered) }
    }

    /// The frame of one of the file's functions, entered through a call: its parameters bound
    /// to the call's arguments, read in the caller's frame.
    private func enter(_ function: FileIndex.Function, through call: FunctionCallExprSyntax, from frame: Frame) -> Frame {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let trailing = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
        var arguments: [String: (ExprSyntax, Frame)] = [:]
        if let indices = FileIndex.argumentIndices(labels: labels, trailing: trailing, of: function) {
            for (argument, position) in zip(call.arguments, indices) { arguments[function.parameters[position].name] = (argument.expression, frame) }
        }
        return Frame(scope: Syntax(function.node), function: function, arguments: arguments, depth: frame.depth + 1, through: frame.through + [function.key])
    }

    /// `String(format: "%d", n)`: numeric specifiers are numbers, `%@` and `%s` the values.
    private func origins(ofFormat call: FunctionCallExprSyntax, in frame: Frame) -> [ValueOrigin] {
        let arguments = Array(call.arguments)
        guard let format = arguments.first, let text = literalText(of: format.expression, in: frame) else {
            return arguments.flatMap { origins(of: $0.expression, in: frame) }
        }
        if !text.contains("%@"), !text.contains("%s") { return [ValueOrigin(.number, "numbers formatted by '\(Self.abbreviated(text))'", site: location(call), through: frame.through)] }
        return arguments.dropFirst().flatMap { origins(of: $0.expression, in: frame) }
    }

    /// A string literal's text, directly or through a local or property holding one.
    func literalText(of expression: ExprSyntax, in frame: Frame) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self) { return literal.representedLiteralValue }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let values = names(in: frame)?.values(of: reference.baseName.text, at: reference.positionAfterSkippingLeadingTrivia.utf8Offset)?.compactMap { definition -> ExprSyntax? in
                if case .value(let value, _) = definition { return value }
                return nil
            } ?? index.properties[reference.baseName.text] ?? []
            let texts = values.compactMap { $0.as(StringLiteralExprSyntax.self)?.representedLiteralValue }
            return texts.count == 1 && values.count == 1 ? texts[0] : nil
        }
        return nil
    }

    // MARK: Script text

    /// A value spliced into script text, with the frame its expression is read in.
    struct Splice {
        var expression: ExprSyntax
        var quoted: Bool
        var frame: Frame
    }

    /// The values a script's text is built from: its interpolations, concatenated operands
    /// and `%@` arguments — followed through locals, properties and the file's functions (a
    /// wrapper's callers build the text). A script the file does not show yields none.
    func splices(ofScript expression: ExprSyntax, in frame: Frame) -> [Splice] {
        guard frame.depth <= Self.maximumDepth, following.insert(expression.id).inserted else { return [] }
        defer { following.remove(expression.id) }
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            var before = ""
            var found: [Splice] = []
            for segment in literal.segments {
                if let text = segment.as(StringSegmentSyntax.self) {
                    before = text.content.text
                } else if let spliced = segment.as(ExpressionSegmentSyntax.self), let value = spliced.expressions.first?.expression {
                    found.append(Splice(expression: value, quoted: Self.endsInQuote(before), frame: frame))
                    before = ""
                }
            }
            return found
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first { return splices(ofScript: only.expression, in: frame) }
        if let inner = Self.unwrapped(expression) { return splices(ofScript: inner, in: frame) }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if let ternary = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }) {
                let branches = [elements[ternary].as(UnresolvedTernaryExprSyntax.self)!.thenExpression] + elements[(ternary + 1)...].filter { !$0.is(BinaryOperatorExprSyntax.self) }
                return branches.flatMap { splices(ofScript: $0, in: frame) }
            }
            let operators = elements.compactMap { $0.as(BinaryOperatorExprSyntax.self)?.operator.text }
            guard !operators.isEmpty, operators.allSatisfy({ $0 == "+" }) else { return [] }
            var found: [Splice] = []
            var before = ""
            for operand in elements where !operand.is(BinaryOperatorExprSyntax.self) {
                if let text = literalText(of: operand, in: frame) {
                    before = text
                } else if operand.is(StringLiteralExprSyntax.self) || isScriptText(operand, in: frame) {
                    found += splices(ofScript: operand, in: frame)
                    before = ""
                } else {
                    found.append(Splice(expression: operand, quoted: Self.endsInQuote(before), frame: frame))
                    before = ""
                }
            }
            return found
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let arguments = Array(call.arguments)
            if FileIndex.calleeName(call) == "String", arguments.first?.label?.text == "format" {
                let format = literalText(of: arguments[0].expression, in: frame) ?? ""
                let quoted = format.contains("'%@'") || format.contains("\"%@\"")
                return arguments.dropFirst().map { Splice(expression: $0.expression, quoted: quoted, frame: frame) }
            }
            if let function = index.functions(calledBy: call).first {
                let entered = enter(function, through: call, from: frame)
                return Self.returnedExpressions(of: function.node).flatMap { splices(ofScript: $0, in: entered) }
            }
            return []
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if let (argument, caller) = frame.arguments[name] { return splices(ofScript: argument, in: caller) }
            if let definitions = names(in: frame)?.values(of: name, at: reference.positionAfterSkippingLeadingTrivia.utf8Offset) {
                return definitions.flatMap { definition -> [Splice] in
                    if case .value(let value, _) = definition { return splices(ofScript: value, in: frame) }
                    return []
                }
            }
            if let function = frame.function, let position = function.parameters.firstIndex(where: { $0.name == name }) {
                // A wrapper: its callers build the text.
                return index.callers(of: function, parameter: position).prefix(Self.maximumCallers).flatMap { caller in
                    let callerFrame = self.frame(at: caller.call)
                    return splices(ofScript: caller.argument, in: Frame(scope: callerFrame.scope, function: callerFrame.function, depth: frame.depth + 1, through: [function.key] + frame.through))
                }
            }
            return (index.properties[name] ?? []).flatMap { splices(ofScript: $0, in: self.frame(for: $0, inheriting: frame)) }
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
           ["self", "Self"].contains(base.trimmedDescription) || (base.is(DeclReferenceExprSyntax.self) && base.trimmedDescription.first?.isUppercase == true) {
            return (index.properties[member.declName.baseName.text] ?? []).flatMap { splices(ofScript: $0, in: self.frame(for: $0, inheriting: frame)) }
        }
        return []
    }

    /// An operand that is itself built script text (a local holding an interpolated string).
    private func isScriptText(_ expression: ExprSyntax, in frame: Frame) -> Bool {
        guard let reference = expression.as(DeclReferenceExprSyntax.self),
              let definitions = names(in: frame)?.values(of: reference.baseName.text, at: reference.positionAfterSkippingLeadingTrivia.utf8Offset) else { return false }
        return definitions.contains { definition in
            if case .value(let value, _) = definition { return value.is(StringLiteralExprSyntax.self) }
            return false
        }
    }

    /// The splices of a script, each with its origins: what the script fact records.
    func scriptSplices(_ expression: ExprSyntax, at node: some SyntaxProtocol) -> [ScriptSplice] {
        let start = frame(at: node)
        var seen: Set<SyntaxIdentifier> = []
        return splices(ofScript: expression, in: start).compactMap { splice in
            guard seen.insert(splice.expression.id).inserted else { return nil }
            return ScriptSplice(expression: Self.abbreviated(splice.expression), location: location(splice.expression), quoted: splice.quoted,
                                origins: origins(of: splice.expression, in: splice.frame), builtElsewhere: splice.frame.scope?.id != start.scope?.id)
        }
    }

    // MARK: Helpers

    static func returnedExpressions(of function: FunctionDeclSyntax) -> [ExprSyntax] {
        guard let body = function.body else { return [] }
        if let single = FileIndex.singleExpression(of: body.statements) { return [single] }
        final class Returns: SyntaxVisitor {
            var found: [ExprSyntax] = []
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
                if let value = node.expression { found.append(value) }
                return .skipChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let returns = Returns(viewMode: .sourceAccurate)
        returns.walk(body)
        return returns.found
    }

    /// A body that replaces quotes or backslashes in what it returns: an escaper.
    static func escapesQuotes(_ body: CodeBlockSyntax) -> Bool {
        for token in body.tokens(viewMode: .sourceAccurate) where token.text == "replacingOccurrences" {
            guard let call = token.parent?.parent?.as(FunctionCallExprSyntax.self) ?? token.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
                  let first = call.arguments.first?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else { continue }
            if ["'", "\"", "\\"].contains(first) { return true }
        }
        return false
    }

    /// A body that JSON-encodes: its result is JSON text (or a JSON string literal).
    static func encodesJSON(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { $0.text == "JSONSerialization" || $0.text == "JSONEncoder" }
    }

    /// A function whose name says it quotes or escapes for script text (`jsStringLiteral`,
    /// `escapeForJavaScript`, `sanitized`).
    static func namedLikeAnEscaper(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["escap", "quot", "stringliteral", "sanitiz"].contains(where: lowered.contains)
    }

    static func isNumeric(_ type: String) -> Bool {
        let bare = type.trimmingCharacters(in: ["?", "!", " "])
        return numericTypes.contains(bare)
    }

    static let numericTypes: Set<String> = ["Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
                                            "Double", "Float", "CGFloat", "Float80", "TimeInterval", "NSInteger", "NSNumber", "Decimal"]
    static let numericMembers: Set<String> = ["count", "isEmpty", "isMainFrame", "hashValue", "timeIntervalSince1970", "isLoading",
                                              "canGoBack", "canGoForward", "estimatedProgress", "width", "height", "origin", "size"]
    static let numericFunctions: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
                                                "Double", "Float", "CGFloat", "Bool", "NSNumber", "round", "floor", "ceil", "min", "max", "abs", "Decimal"]

    /// What a parameter of this type, in this function, holds.
    static func pageInput(type: String, function: FileIndex.Function) -> ValueOrigin.PageInput? {
        let bare = type.trimmingCharacters(in: ["?", "!", " "])
        switch bare {
        case "WKScriptMessage": return .message
        case "WKNavigationAction":
            return function.parameters.contains { $0.label == "createWebViewWith" } ? .newWindow : .navigation
        case "WKNavigationResponse", "WKFrameInfo", "WKSecurityOrigin": return .navigation
        // WebKit for SwiftUI: a page's navigation action (a new window arrives here too, with
        // no target frame: a page has no other new-window hook) and its response.
        case "WebPage.NavigationAction", "WebPage.NavigationResponse", "WebPage.FrameInfo": return .navigation
        case "URL", "NSURL", "Set<UIOpenURLContext>":
            // The app's URL-opening entry points: a deep link another app chose.
            if function.name == "application", function.parameters.contains(where: { $0.label == "open" }) { return .openedURL }
            if function.name == "scene", function.parameters.contains(where: { $0.label == "openURLContexts" }) { return .openedURL }
            return nil
        default:
            return nil
        }
    }

    /// `https:`, `mailto:`: text that begins with a URL scheme and its colon.
    static func startsWithScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    static func endsInQuote(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        return last == "'" || last == "\"" || last == "`"
    }

    static func abbreviated(_ expression: some SyntaxProtocol) -> String { abbreviated(expression.trimmedDescription) }

    static func abbreviated(_ text: String) -> String { CodeValue.abbreviated(text) }

    /// The same origin reached twice (a value read on two paths) is said once.
    static func deduplicated(_ origins: [ValueOrigin]) -> [ValueOrigin] {
        var seen: Set<ValueOrigin> = []
        return origins.filter { seen.insert($0).inserted }
    }
}
#endif
