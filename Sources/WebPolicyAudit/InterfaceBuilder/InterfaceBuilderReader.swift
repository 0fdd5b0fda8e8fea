/// Reads a `.storyboard` or `.xib`: every `<wkWebView>` element, and every view whose
/// `customClass` may be a WKWebView subclass (decided once every file's classes are known).
/// A view archived in Interface Builder is built by WebKit from the archived configuration,
/// so it never passes through the runtime's configurator (audit-checks.md §11.11).
public enum InterfaceBuilderReader {
    public static func read(_ bytes: [UInt8], path: String) -> FileFacts {
        var file = FileFacts(path: path, language: .interfaceBuilder)
        let locator = ByteLocator(path: path, bytes: bytes)
        let events: [XMLScanner.Event]
        switch XMLScanner.events(of: bytes) {
        case .failure(let failure):
            file.problems.append(ReadProblem("not an Interface Builder document: \(failure.message)", at: locator.location(failure.offset)))
            return file
        case .success(let read):
            events = read
        }
        // The web view whose configuration and preferences elements follow.
        var openWebView: Int?
        var depth = 0
        var webViewDepth = 0
        for event in events {
            switch event {
            case .start(let name, let attributes, let selfClosing, let offset):
                let site = FactSite(location: locator.location(offset + 1, offset + 1 + name.utf8.count))
                let customClass = attributes.first { $0.name == "customClass" }?.value
                if name == "wkWebView" {
                    let construction = AppFact.WebViewConstruction(className: customClass ?? "WKWebView", interfaceBuilder: true)
                    // A subclass named in customClass is confirmed by the closure; a plain
                    // <wkWebView> is one already.
                    if customClass == nil {
                        file.facts.append(AppFact(.webView(construction), at: site))
                    } else {
                        file.constructions.append(AppFact(.webView(construction), at: site))
                    }
                    if !selfClosing {
                        openWebView = file.facts.count
                        webViewDepth = depth + 1
                    }
                } else if let customClass {
                    file.constructions.append(AppFact(.webView(AppFact.WebViewConstruction(className: customClass, interfaceBuilder: true)), at: site))
                } else if name == "wkPreferences", openWebView != nil {
                    for attribute in attributes {
                        let key: AppFact.SettingKey?
                        switch attribute.name {
                        case "javaScriptEnabled": key = .javaScriptEnabled
                        case "javaScriptCanOpenWindowsAutomatically": key = .javaScriptCanOpenWindowsAutomatically
                        default: key = nil
                        }
                        guard let key, let value = PlistNode.string(attribute.value, site.location).bool else { continue }
                        let setting = AppFact.Setting(key: key, value: .bool(value), target: "preferences.\(attribute.name)")
                        file.facts.append(AppFact(.setting(setting), at: FactSite(location: locator.location(attribute.offset, attribute.offset + attribute.value.utf8.count))))
                    }
                }
                if !selfClosing { depth += 1 }
            case .end(let name, _):
                depth -= 1
                if name == "wkWebView", depth < webViewDepth { openWebView = nil }
            case .text:
                break
            }
        }
        return file
    }
}
