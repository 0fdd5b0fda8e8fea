// Built only with the SwiftAudit trait: without it this module is empty and needs no swift-syntax.
#if SwiftAudit
import SwiftSyntax
import WebPolicyAudit

/// What a delegate method's body shows of its decision: whether a message handler checks the
/// sender's frame and which hosts it compares the origin with; whether a permission request
/// is granted, and whether the requester is looked at first.
enum DelegateBody {
    static func read(_ node: FunctionDeclSyntax, role: AppFact.DelegateMethod.Role) -> AppFact.DelegateMethod {
        guard let body = node.body else { return AppFact.DelegateMethod(role: role) }
        let tokens = Array(body.tokens(viewMode: .sourceAccurate))
        var method = AppFact.DelegateMethod(role: role, readsFrameInfo: tokens.contains { $0.text == "frameInfo" })
        switch role {
        case .receiveScriptMessage:
            method.testsMainFrame = tokens.contains { $0.text == "isMainFrame" }
            method.comparedHosts = comparedHosts(in: body)
        case .mediaCapturePermission, .deviceOrientationPermission:
            // `decisionHandler(.grant)`, `return .grant` (the async form).
            method.grants = tokens.indices.contains { tokens[$0].text == "grant" && $0 > 0 && tokens[$0 - 1].text == "." }
            // The origin and the frame are the second and third parameters.
            let requester = node.signature.parameterClause.parameters.dropFirst().prefix(2).map { ($0.secondName ?? $0.firstName).text }
            method.readsRequester = tokens.contains { token in
                requester.contains(token.text) && token.tokenKind.isIdentifier && token.parent?.is(DeclReferenceExprSyntax.self) == true
            }
            // The hosts it grants to, for the draft's list of origins that may ask.
            method.comparedHosts = comparedHosts(in: body)
        default:
            break
        }
        return method
    }

    /// Host-like literals compared with something named `host` or `origin`: `== "pay.example.com"`,
    /// `["a.example.com", "b.example.com"].contains(origin.host)`, `hasSuffix(".example.com")`.
    static func comparedHosts(in body: CodeBlockSyntax) -> [String] {
        final class Comparisons: SyntaxVisitor {
            var hosts: [String] = []
            override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
                // An unfolded sequence: `a == "x" || b == "y"` is seven elements; each `==`
                // compares its two neighbours.
                let elements = Array(node.elements)
                for index in elements.indices.dropFirst().dropLast() where elements[index].as(BinaryOperatorExprSyntax.self)?.operator.text == "==" {
                    let left = elements[index - 1], right = elements[index + 1]
                    let literal = left.as(StringLiteralExprSyntax.self)?.representedLiteralValue ?? right.as(StringLiteralExprSyntax.self)?.representedLiteralValue
                    let other = left.is(StringLiteralExprSyntax.self) ? right : left
                    if let literal, DelegateBody.namesOrigin(other) { hosts.append(literal) }
                }
                return .visitChildren
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                guard let name = FileIndex.calleeName(node), let argument = node.arguments.first?.expression else { return .visitChildren }
                if name == "contains", DelegateBody.namesOrigin(argument), let array = node.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(ArrayExprSyntax.self) {
                    hosts += array.elements.compactMap { $0.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue }
                }
                if name == "hasSuffix", let base = node.calledExpression.as(MemberAccessExprSyntax.self)?.base, DelegateBody.namesOrigin(base),
                   let suffix = argument.as(StringLiteralExprSyntax.self)?.representedLiteralValue, suffix.hasPrefix(".") {
                    hosts.append("*" + suffix)
                }
                return .visitChildren
            }
        }
        let visitor = Comparisons(viewMode: .sourceAccurate)
        visitor.walk(body)
        var seen: Set<String> = []
        return visitor.hosts.map { $0.lowercased() }.filter { host in
            host.contains(".") && !host.contains(" ") && !host.contains("/") && seen.insert(host).inserted
        }
    }

    static func namesOrigin(_ expression: ExprSyntax) -> Bool {
        let text = expression.trimmedDescription
        return text.hasSuffix("host") || text.hasSuffix("host?.lowercased()") || text.hasSuffix("host.lowercased()") || text.contains("securityOrigin")
    }
}
#endif
