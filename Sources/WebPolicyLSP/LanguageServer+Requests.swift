import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The editor's questions about an open document, each answered from its last lint or its text.
extension LanguageServer {
    private static func uri(_ params: [String: Any]) -> String {
        (params["textDocument"] as? [String: Any])?["uri"] as? String ?? ""
    }

    /// A finding first; else what is under the cursor: a key, a url-filter, a host pattern, a
    /// content-rule construct's first iOS.
    func hover(_ params: [String: Any]) -> JSONValue {
        guard let lint = currentLint(of: Self.uri(params)), let position = position(params["position"], in: lint.file) else { return .null }
        let yaml = !Self.isJSON(lint.file.text, path: lint.file.path)
        let about = (yaml ? SchemaCompletion.keyHover(at: position, in: lint.file) : nil)
            ?? URLFilterHover.text(at: position, in: lint.file, policy: lint.policy)
            ?? lint.policy.flatMap { HostHover.hover(at: position, in: lint.file, policy: $0) }
            ?? (yaml ? FeatureHover.value(at: position, in: lint.file) : nil)
        // A finding and what is under it both: the key's or the host's words after the finding's.
        return Hover.hover(at: position, findings: lint.report.diagnostics, in: lint.file, encoding: encoding, then: about)
            ?? about.map { .object([("contents", .object([("kind", .string("markdown")), ("value", .string($0))]))]) }
            ?? .null
    }

    func definition(_ params: [String: Any]) -> JSONValue {
        guard let lint = currentLint(of: Self.uri(params)), let position = position(params["position"], in: lint.file) else { return .null }
        return Navigation.definition(at: position, references(lint)) ?? .null
    }

    /// From the text as it is now, which need not parse: no lint needed.
    func completion(_ params: [String: Any]) -> JSONValue {
        let uri = Self.uri(params)
        guard let text = documents.text(of: uri) else { return .array([]) }
        let file = SourceFile(path: DocumentStore.path(ofURI: uri), text: text)
        // Another tool's YAML gets no policy keys; an empty buffer may become a policy.
        guard Self.isPolicy(text, path: file.path) || Self.mayBecomePolicy(text), !TraceLens.isTrace(file.path),
              let position = position(params["position"], in: file) else { return .array([]) }
        // The schema's keys and values, and the names this policy declares itself — in YAML: a
        // JSON policy's editor completes from the schema its settings name (a `$schema` key is
        // no part of a policy).
        guard !Self.isJSON(text, path: file.path) else { return .array([]) }
        let own = loaded[uri].map { PolicyNames.items(line: position.line, column: position.column, in: file, policy: $0, encoding: encoding) } ?? []
        return .array(SchemaCompletion.items(line: position.line, column: position.column, in: file, encoding: encoding) + own)
    }

    func codeActions(_ params: [String: Any]) -> JSONValue {
        let range = params["range"] as? [String: Any]
        let first = (range?["start"] as? [String: Any])?["line"] as? Int ?? 0
        let last = (range?["end"] as? [String: Any])?["line"] as? Int ?? first
        let uri = Self.uri(params)
        guard let lint = currentLint(of: uri) else { return .array([]) }
        return .array(CodeActions.actions(for: lint.report, in: lint.file, uri: uri, lines: min(first, last)...max(first, last), encoding: encoding,
                                          suppressible: Self.suppressibleRuleIDs))
    }

    /// A trace's lenses, made now from the trace and the policy as they are in the editor.
    func codeLenses(_ params: [String: Any]) -> JSONValue {
        let uri = Self.uri(params)
        let path = DocumentStore.path(ofURI: uri)
        guard TraceLens.isTrace(path), let text = documents.text(of: uri) else { return .array([]) }
        return .array(TraceLens.lenses(of: text, path: path, root: root, policyText: openText(ofPath:), encoding: encoding).lenses)
    }

    func documentLinks(_ params: [String: Any]) -> JSONValue {
        guard let lint = currentLint(of: Self.uri(params)) else { return .array([]) }
        return .array(Navigation.documentLinks(references(lint), in: lint.file, encoding: encoding))
    }

    func documentSymbols(_ params: [String: Any]) -> JSONValue {
        guard let lint = currentLint(of: Self.uri(params)) else { return .array([]) }
        return .array(Navigation.symbols(in: lint.file, rules: lint.policy?.contentRules ?? [], encoding: encoding))
    }

    /// A lens run: its line's decision said again, as a message the editor shows.
    func executeCommand(_ params: [String: Any]) -> JSONValue {
        if params["command"] as? String == TraceLens.command, let arguments = params["arguments"] as? [Any], arguments.count == 2,
           let line = arguments[0] as? Int, let title = arguments[1] as? String {
            notify("window/showMessage", .object([("type", .int(3)), ("message", .string("line \(line): \(title)"))]))
        }
        return .null
    }
}
