import WebPolicyRuntime

/// Facts from an Objective-C file (`.m`, `.mm`, `.h`), at the token level: message sends
/// matched by their selector's keywords inside one `[ … ]`, dot-syntax assignments, method
/// definitions of the delegates, `@interface X : Y`, and constants from `#define` and
/// `NSString *const`. Receiver types cannot be known lexically, so a WebKit-shaped selector
/// on an app's own protocol is read as the WebKit call (parsing-swift-for-audit.md §6.4).
public enum ObjCFactReader {
    public static func read(_ bytes: [UInt8], path: String) -> FileFacts {
        var reader = Reader(bytes: bytes, path: path)
        reader.run()
        return reader.file
    }
}

private struct Reader {
    let bytes: [UInt8]
    let locator: ByteLocator
    var file: FileFacts
    var tokens: [ObjCToken] = []
    var compiled: [FactSite.Compiled] = []
    /// For each `[`, `(` and `{`, the index of its partner (or the end when unmatched).
    var partner: [Int: Int] = [:]
    /// The same pairs from the closing side, for walking a chain backwards (`[a b].c = …`).
    var openerOf: [Int: Int] = [:]

    var currentClass: String?
    var currentMethod: String?
    /// `name = value;` seen in the current method, for one hop from a variable to its value;
    /// nil for a variable assigned more than once (`scheme = … ?: @"app"` after a setting):
    /// which value reaches the call is not known, and the audit does not guess.
    var locals: [String: Range<Int>?] = [:]
    /// `handlesURLScheme:` seen in the current method: a dynamic scheme is checked.
    var methodChecksScheme = false

    init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        locator = ByteLocator(path: path, bytes: bytes)
        file = FileFacts(path: path, language: .objectiveC)
    }

    mutating func run() {
        var conditionals = ObjCConditionals()
        for token in ObjCTokenizer.tokens(of: bytes) {
            if token.kind == .directive {
                conditionals.apply(token.text)
                readDefine(token, compiled: conditionals.compiled)
                continue
            }
            tokens.append(token)
            compiled.append(conditionals.compiled)
        }
        matchBrackets()
        var braceDepth = 0
        var methodEnd = -1
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if index == methodEnd {
                currentMethod = nil
                locals = [:]
                methodChecksScheme = false
            }
            switch token.kind {
            case .atKeyword:
                switch token.text {
                case "interface":
                    readInterface(at: index)
                case "implementation":
                    currentClass = identifier(at: index + 1)
                case "end":
                    currentClass = nil
                default:
                    break
                }
            case .punctuation:
                switch token.text {
                case "{": braceDepth += 1
                case "}": braceDepth = max(0, braceDepth - 1)
                case _ where (token.text == "-" || token.text == "+") && braceDepth == 0 && currentClass != nil && tokens[safe: index + 1]?.isPunctuation("(") == true:
                    if let (selector, bodyStart) = methodSignature(from: index) {
                        currentMethod = selector
                        locals = [:]
                        methodChecksScheme = false
                        methodEnd = partner[bodyStart] ?? tokens.count
                        readDelegateMethod(selector, at: index, body: bodyStart..<methodEnd)
                    }
                case "[":
                    readMessage(at: index)
                case "=":
                    readAssignment(at: index, topLevel: braceDepth == 0)
                default:
                    break
                }
            case .identifier:
                if token.text == "UIWebView" {
                    file.facts.append(AppFact(.api(.init(.uiWebView)), at: site(index..<(index + 1))))
                }
            case .string:
                if let name = WebKitVocabulary.privateName(in: token.text) {
                    file.facts.append(AppFact(.api(.init(.privateAPI, detail: .string(name))), at: site(index..<(index + 1))))
                } else if index >= 2, tokens[index - 1].isPunctuation("("), tokens[index - 2].kind == .identifier,
                          WebKitVocabulary.selectorFunctions.contains(tokens[index - 2].text),
                          let selector = WebKitVocabulary.privateSelector(token.text, in: currentClass) {
                    // `NSSelectorFromString(@"_setDrawsBackground:")` in a category on a WebKit class.
                    file.facts.append(AppFact(.api(.init(.privateAPI, detail: .string(selector))), at: site((index - 2)..<(index + 2))))
                }
            default:
                break
            }
            if token.kind == .identifier, WebKitVocabulary.privateNames.contains(token.text) {
                file.facts.append(AppFact(.api(.init(.privateAPI, detail: .string(token.text))), at: site(index..<(index + 1))))
            }
            index += 1
        }
    }

    // MARK: Structure

    mutating func matchBrackets() {
        var open: [Int] = []
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            switch token.text {
            case "[", "(", "{":
                open.append(index)
            case "]", ")", "}":
                // A stray closer (unbalanced code, or a brace in an inactive #if branch)
                // closes the nearest opener of its kind, or nothing.
                let opener = token.text == "]" ? "[" : token.text == ")" ? "(" : "{"
                if let position = open.lastIndex(where: { tokens[$0].text == opener }) {
                    partner[open[position]] = index
                    openerOf[index] = open[position]
                    open.removeSubrange(position...)
                }
            default:
                break
            }
        }
    }

    func identifier(at index: Int) -> String? {
        guard let token = tokens[safe: index], token.kind == .identifier else { return nil }
        return token.text
    }

    mutating func readInterface(at index: Int) {
        guard let name = identifier(at: index + 1) else { return }
        var supertypes: [String] = []
        if tokens[safe: index + 2]?.isPunctuation(":") == true, let superclass = identifier(at: index + 3) {
            supertypes.append(superclass)
        }
        file.classes.append(ClassDeclaration(name: name, supertypes: supertypes, site: site(index..<(index + 2))))
    }

    /// `- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(…)action … {`:
    /// the selector, and the index of the body's `{` (nil for a declaration ending in `;`).
    func methodSignature(from index: Int) -> (String, Int)? {
        var position = index + 1
        // The return type.
        guard tokens[safe: position]?.isPunctuation("(") == true, let close = partner[position] else { return nil }
        position = close + 1
        var selector = ""
        while position < tokens.count {
            let token = tokens[position]
            if token.isPunctuation("{") { return selector.isEmpty ? nil : (selector, position) }
            if token.isPunctuation(";") { return nil }
            if token.kind == .identifier, tokens[safe: position + 1]?.isPunctuation(":") == true {
                selector += token.text + ":"
                position += 2
                // The parameter's type and name.
                if tokens[safe: position]?.isPunctuation("(") == true, let typeClose = partner[position] { position = typeClose + 1 }
                position += 1
                continue
            }
            if token.kind == .identifier, selector.isEmpty {
                selector = token.text
            }
            position += 1
        }
        return nil
    }

    mutating func readDelegateMethod(_ selector: String, at index: Int, body: Range<Int>) {
        let role: AppFact.DelegateMethod.Role
        if selector.hasPrefix("webView:decidePolicyForNavigationAction:") {
            role = .decideNavigationAction
        } else if selector.hasPrefix("webView:createWebViewWithConfiguration:") {
            role = .createWebView
        } else if selector.hasPrefix("webView:didReceiveAuthenticationChallenge:") {
            role = .authenticationChallenge
        } else if selector.hasPrefix("userContentController:didReceiveScriptMessage:") {
            role = .receiveScriptMessage
        } else if selector.hasPrefix("webView:requestMediaCapturePermissionForOrigin:") {
            role = .mediaCapturePermission
        } else if selector.hasPrefix("webView:requestDeviceOrientationAndMotionPermissionForOrigin:") {
            role = .deviceOrientationPermission
        } else {
            return
        }
        let bodyTokens = tokens[body.clamped(to: tokens.indices)]
        var method = AppFact.DelegateMethod(role: role, readsFrameInfo: bodyTokens.contains { $0.isIdentifier("frameInfo") },
                                            buildsWebView: bodyTokens.contains { $0.isIdentifier("initWithFrame") })
        method.testsMainFrame = bodyTokens.contains { $0.isIdentifier("isMainFrame") || $0.isIdentifier("mainFrame") }
        method.grants = bodyTokens.contains { $0.isIdentifier("WKPermissionDecisionGrant") }
        // The origin's or frame's properties read before deciding (`origin.host`, `frame.mainFrame`).
        method.readsRequester = bodyTokens.contains { ["host", "protocol", "port", "securityOrigin", "isMainFrame", "mainFrame"].contains($0.text) && $0.kind == .identifier }
        file.facts.append(AppFact(.delegate(method), at: site(index..<(index + 1))))
    }

    // MARK: Constants

    mutating func readDefine(_ token: ObjCToken, compiled: FactSite.Compiled) {
        // `define NAME @"value"` or `define NAME "value"`.
        guard token.text.hasPrefix("define") else { return }
        let body = token.text.dropFirst("define".count).drop { $0 == " " || $0 == "\t" }
        let name = body.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, compiled != .never else { return }
        var rest = body.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("@") { rest = rest.dropFirst() }
        guard rest.hasPrefix("\""), rest.count >= 2, rest.hasSuffix("\"") else { return }
        let value = rest.dropFirst().dropLast()
        guard !value.contains("\"") else { return }
        file.constants.append(ConstantDeclaration(names: [String(name)], value: .string(String(value))))
    }

    // MARK: Assignments

    mutating func readAssignment(at index: Int, topLevel: Bool) {
        // `=` only: not `==`, `!=`, `<=`, `>=`, `+=`.
        if let next = tokens[safe: index + 1], next.isPunctuation("=") { return }
        if let previous = tokens[safe: index - 1], previous.kind == .punctuation, ["=", "!", "<", ">", "+", "-", "*", "/", "|", "&", "^", "%"].contains(previous.text) { return }
        guard let name = identifier(at: index - 1) else { return }
        let valueEnd = statementEnd(from: index + 1)
        let value = index + 1..<valueEnd
        if topLevel {
            // `NSString *const kName = @"value";`
            let classified = classify(value)
            if classified.kind == .string { file.constants.append(ConstantDeclaration(names: [name], value: classified)) }
            return
        }
        if currentMethod != nil { locals[name] = locals[name] == nil ? .some(value) : .some(nil) }
        // Dot syntax: the name is a property, after a `.`.
        guard tokens[safe: index - 2]?.isPunctuation(".") == true else {
            if name == "protocolClasses" { file.facts.append(AppFact(.api(.init(.urlProtocol)), at: site(chainStart(before: index - 1)..<index))) }
            return
        }
        let start = chainStart(before: index - 1)
        if name == "protocolClasses" {
            file.facts.append(AppFact(.api(.init(.urlProtocol)), at: site(start..<index)))
            return
        }
        guard let key = WebKitVocabulary.objectiveCSettings[name] else { return }
        let target = text(start..<index)
        let onCopy = key.isConfigurationScalar && target.contains("configuration.") && !target.hasPrefix("configuration.")
            && (target.lowercased().contains("webview.configuration.") || target.contains(".configuration.\(name)"))
        let setting = AppFact.Setting(key: key, value: classify(value), target: target, onCopy: onCopy)
        file.facts.append(AppFact(.setting(setting), at: site(start..<index)))
    }

    /// The first token of `a.b.c` ending at `index`.
    func chainStart(before index: Int) -> Int {
        var start = index
        while start >= 2, tokens[start - 1].isPunctuation("."), tokens[start - 2].kind == .identifier || tokens[start - 2].isPunctuation("]") || tokens[start - 2].isPunctuation(")") {
            if tokens[start - 2].kind == .identifier {
                start -= 2
            } else if let open = openerOf[start - 2] {
                start = open
            } else {
                break
            }
        }
        return start
    }

    /// The `;` (or closing brace) that ends a statement starting at `index`, brackets skipped.
    func statementEnd(from index: Int) -> Int {
        var position = index
        while position < tokens.count {
            let token = tokens[position]
            if token.kind == .punctuation {
                if token.text == ";" || token.text == "}" || token.text == ")" || token.text == "]" { return position }
                if token.text == "[" || token.text == "(" || token.text == "{", let close = partner[position] {
                    position = close + 1
                    continue
                }
            }
            position += 1
        }
        return tokens.count
    }

    // MARK: Messages

    mutating func readMessage(at open: Int) {
        guard let close = partner[open], close > open + 1 else { return }
        // Keyword parts at this bracket's depth: `name:` after a non-empty receiver.
        var parts: [(keyword: String, argument: Range<Int>, at: Int)] = []
        var receiverEnd: Int?
        var position = open + 1
        while position < close {
            let token = tokens[position]
            if token.kind == .punctuation, token.text == "[" || token.text == "(" || token.text == "{", let partnerIndex = partner[position], partnerIndex < close {
                position = partnerIndex + 1
                continue
            }
            if token.kind == .identifier, position > open + 1, tokens[safe: position + 1]?.isPunctuation(":") == true {
                if receiverEnd == nil { receiverEnd = position }
                if let last = parts.indices.last { parts[last].argument = parts[last].argument.lowerBound..<position }
                parts.append((token.text, (position + 2)..<close, position))
                position += 2
                continue
            }
            position += 1
        }
        let receiver: Range<Int>
        let selector: String
        if let receiverEnd {
            receiver = (open + 1)..<receiverEnd
            selector = parts.map { $0.keyword + ":" }.joined()
        } else {
            // A unary message: `[receiver name]`.
            guard tokens[close - 1].kind == .identifier, close - 1 > open + 1 else { return }
            receiver = (open + 1)..<(close - 1)
            selector = tokens[close - 1].text
        }
        func argument(_ keyword: String) -> Range<Int>? { parts.first { $0.keyword == keyword }?.argument }
        let messageSite = site(open..<(close + 1))
        let receiverText = text(receiver)

        if let row = WebKitAPICatalogue.objectiveCCall(selector) {
            readWebKitMessage(row, selector: selector, first: parts.first?.argument, argument: argument, receiver: receiverText, at: messageSite)
            return
        }
        switch selector {
        case "setValue:forKey:":
            guard let key = argument("forKey") else { return }
            let value = classify(key)
            guard value.kind == .string else { return }
            file.facts.append(AppFact(.api(.init(.keyValueCoding, detail: value, receiver: receiverText)), at: messageSite))
        case "registerClass:" where receiverText == "NSURLProtocol":
            file.facts.append(AppFact(.api(.init(.urlProtocol)), at: messageSite))
        case "canOpenURL:":
            file.facts.append(AppFact(.api(.init(.canOpenURL, detail: argument("canOpenURL").map { classify($0) })), at: messageSite))
        case _ where selector.hasPrefix("openURL:"):
            file.facts.append(AppFact(.api(.init(.openURL, detail: argument("openURL").map { classify($0) })), at: messageSite))
        case "new":
            if receiver.count == 1, let name = identifier(at: receiver.lowerBound) {
                file.constructions.append(AppFact(.webView(.init(className: name)), at: messageSite))
            }
        default:
            if let key = WebKitVocabulary.objectiveCSetters[selector], let value = parts.first?.argument {
                file.facts.append(AppFact(.setting(.init(key: key, value: classify(value), target: receiverText + "." + selector)), at: messageSite))
            } else if selector.hasPrefix("init"), receiver.count == 4, tokens[receiver.lowerBound].isPunctuation("["),
                      let name = identifier(at: receiver.lowerBound + 1), tokens[receiver.lowerBound + 2].isIdentifier("alloc") {
                // The runtime is Swift: an Objective-C construction is never managed.
                let configuration = argument("configuration").map(text)
                let managed = false
                file.constructions.append(AppFact(.webView(.init(className: name, configuration: configuration, managed: managed,
                                                                 forNewWindow: currentMethod?.hasPrefix("webView:createWebViewWithConfiguration:") ?? false)), at: messageSite))
            }
        }
    }

    /// A message of the WebKit API catalogue: the fact its row names, read from its arguments.
    private mutating func readWebKitMessage(_ row: WebKitAPICatalogue.Row, selector: String, first: Range<Int>?, argument: (String) -> Range<Int>?,
                                   receiver: String, at site: FactSite) {
        switch row.fact {
        case .messageHandler(let reply):
            guard let name = argument("name") else { return }
            let handler = AppFact.MessageHandler(name: classify(name), world: argument("contentWorld").map(classifyWorld), reply: reply)
            file.facts.append(AppFact(.messageHandler(handler), at: site))
        case .schemeHandler:
            guard let scheme = argument("forURLScheme") else { return }
            file.facts.append(AppFact(.schemeHandler(.init(scheme: classify(scheme), guarded: methodChecksScheme, handler: first.map(handlerName))), at: site))
        case .schemeCheck:
            methodChecksScheme = true
        case .load(let api):
            guard let content = first, let base = argument("baseURL") ?? argument("allowingReadAccessToURL") else { return }
            file.facts.append(AppFact(.load(.init(api: api, content: classify(content), base: classify(base))), at: site))
        case .script:
            guard let script = first else { return }
            readScript(String(selector.prefix { $0 != ":" }), classify(script), at: site)
        case .cookieStore:
            file.facts.append(AppFact(.api(.init(.cookieStore)), at: site))
        case .userScript:
            file.facts.append(AppFact(.api(.init(.userScript, detail: argument("forMainFrameOnly").map { classify($0) })), at: site))
        case .contentRuleList:
            file.facts.append(AppFact(.api(.init(.contentRuleList, detail: first.map { classify($0) })), at: site))
        }
    }

    /// `[[AssetHandler alloc] init…]`, or a variable assigned one: the class's name.
    func handlerName(_ range: Range<Int>) -> String {
        var range = range
        if range.count == 1, let name = identifier(at: range.lowerBound), let assigned = locals[name], let local = assigned { range = local }
        let slice = tokens[range.clamped(to: tokens.indices)]
        if let alloc = slice.firstIndex(where: { $0.isIdentifier("alloc") }), alloc > slice.startIndex, tokens[alloc - 1].kind == .identifier {
            return tokens[alloc - 1].text
        }
        return text(range)
    }

    mutating func readScript(_ api: String, _ script: CodeValue, at site: FactSite) {
        guard script.kind != .string else { return }
        file.facts.append(AppFact(.script(.init(api: api, script: script)), at: site))
    }

    // MARK: Values

    /// `WKContentWorld.pageWorld`, `.defaultClientWorld`, `[WKContentWorld worldWithName:@"x"]`.
    func classifyWorld(_ range: Range<Int>) -> CodeValue {
        let written = text(range)
        if written.hasSuffix("pageWorld") { return CodeValue(kind: .string, text: "page", constant: written) }
        if written.hasSuffix("defaultClientWorld") { return CodeValue(kind: .string, text: "client", constant: written) }
        if written.contains("worldWithName:"), let literal = tokens[range].first(where: { $0.kind == .string }) {
            return CodeValue(kind: .string, text: literal.text, constant: written)
        }
        return classify(range)
    }

    func classify(_ range: Range<Int>, hops: Int = 0) -> CodeValue {
        let range = range.clamped(to: tokens.indices)
        guard !range.isEmpty else { return .expression("") }
        let slice = tokens[range]
        if slice.allSatisfy({ $0.kind == .string }) { return .string(slice.map(\.text).joined()) }
        if slice.count == 1, let token = slice.first {
            switch token.kind {
            case .identifier:
                switch token.text {
                case "YES", "true": return .bool(true)
                case "NO", "false": return .bool(false)
                case "nil", "NULL", "Nil": return CodeValue(kind: .nil, text: "nil")
                default:
                    if hops == 0, let assigned = locals[token.text], let local = assigned {
                        var value = classify(local, hops: 1)
                        if value.kind == .expression, value.reference == nil { value.text = text(local) }
                        if value.isKnown || value.kind == .interpolated { value.constant = value.constant ?? token.text }
                        return value
                    }
                    return .expression(token.text, reference: token.text)
                }
            case .atKeyword where token.text == "YES" || token.text == "NO":
                return .bool(token.text == "YES")
            case .number:
                return CodeValue(kind: .number, text: token.text)
            default:
                break
            }
        }
        let written = text(range)
        if slice.contains(where: { $0.isIdentifier("stringWithFormat") || $0.isIdentifier("stringByAppendingString") || $0.isIdentifier("stringByAppendingFormat") || $0.isIdentifier("initWithFormat") }) {
            return CodeValue(kind: .interpolated, text: written)
        }
        return .expression(written)
    }

    /// The source text of a token range, blanks collapsed.
    func text(_ range: Range<Int>) -> String {
        let range = range.clamped(to: tokens.indices)
        guard let first = range.first, let last = range.last else { return "" }
        let raw = String(decoding: bytes[tokens[first].start..<tokens[last].end], as: UTF8.self)
        return raw.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    func site(_ range: Range<Int>) -> FactSite {
        let range = range.clamped(to: tokens.indices)
        guard let first = range.first, let last = range.last else { return FactSite(location: locator.location(0)) }
        return FactSite(location: locator.location(tokens[first].start, tokens[last].end), compiled: compiled[first],
                        enclosingType: currentClass, enclosingFunction: currentMethod)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
