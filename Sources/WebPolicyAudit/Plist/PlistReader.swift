import Foundation
import WebPolicyRuntime

/// Reads an Info.plist or `.entitlements` file: XML plists with every key's line and column,
/// binary and old-style plists through Foundation (at the file's start, there being no
/// lines). A file that is not a property list is a problem at its place, never a crash.
public enum PlistReader {
    public static func read(_ bytes: [UInt8], path: String) -> Result<PlistNode, ReadProblem> {
        if bytes.starts(with: Array("bplist".utf8)) || !looksLikeXML(bytes) {
            return readWithFoundation(bytes, path: path)
        }
        let locator = ByteLocator(path: path, bytes: bytes)
        switch XMLScanner.events(of: bytes) {
        case .failure(let failure):
            return .failure(ReadProblem("not a property list: \(failure.message)", at: locator.location(failure.offset)))
        case .success(let events):
            var builder = Builder(events: events, locator: locator)
            do {
                return .success(try builder.document())
            } catch let failure as XMLScanner.Failure {
                return .failure(ReadProblem("not a property list: \(failure.message)", at: locator.location(failure.offset)))
            } catch {
                return .failure(ReadProblem("not a property list", at: locator.location(0)))
            }
        }
    }

    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        let start = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return start.first == UInt8(ascii: "<")
    }

    private static func readWithFoundation(_ bytes: [UInt8], path: String) -> Result<PlistNode, ReadProblem> {
        let start = SourceLocation(path: path, range: SourceRange(at: SourcePosition(line: 1, column: 1)))
        guard let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) else {
            return .failure(ReadProblem("not a property list (neither XML nor binary nor old-style)", at: start))
        }
        return .success(PlistNode.from(object, at: start))
    }

    /// The XML plist grammar over the scanner's events.
    private struct Builder {
        let events: [XMLScanner.Event]
        let locator: ByteLocator
        var position = 0

        init(events: [XMLScanner.Event], locator: ByteLocator) {
            self.events = events
            self.locator = locator
        }

        mutating func document() throws -> PlistNode {
            guard case .start(let name, _, let selfClosing, let offset)? = peek() else {
                throw XMLScanner.Failure(message: "no <plist> element", offset: 0)
            }
            guard name == "plist" else { return try value() }
            position += 1
            guard !selfClosing else { return .dictionary([], locator.location(offset)) }
            let root = try value()
            try expectEnd("plist")
            return root
        }

        private func peek() -> XMLScanner.Event? { position < events.count ? events[position] : nil }

        private mutating func expectEnd(_ name: String) throws {
            guard case .end(let found, _)? = peek(), found == name else {
                throw XMLScanner.Failure(message: "expected </\(name)>", offset: offset(of: peek()))
            }
            position += 1
        }

        private func offset(of event: XMLScanner.Event?) -> Int {
            switch event {
            case .start(_, _, _, let offset)?, .end(_, let offset)?, .text(_, let offset)?: return offset
            case nil:
                if case .start(_, _, _, let offset)? = events.last { return offset }
                if case .end(_, let offset)? = events.last { return offset }
                if case .text(_, let offset)? = events.last { return offset }
                return 0
            }
        }

        private mutating func text(closing name: String) throws -> String {
            var text = ""
            if case .text(let value, _)? = peek() {
                text = value
                position += 1
            }
            try expectEnd(name)
            return text
        }

        // Nesting is bounded by the input's length (each level consumes a start tag), and a
        // plist deep enough to exhaust the stack is refused first.
        private mutating func value(depth: Int = 0) throws -> PlistNode {
            guard depth < 512 else { throw XMLScanner.Failure(message: "nested more than 512 levels deep", offset: offset(of: peek())) }
            guard case .start(let name, _, let selfClosing, let offset)? = peek() else {
                throw XMLScanner.Failure(message: "expected a value", offset: self.offset(of: peek()))
            }
            position += 1
            let location = locator.location(offset)
            switch name {
            case "dict":
                var entries: [(key: String, keyLocation: SourceLocation, value: PlistNode)] = []
                if selfClosing { return .dictionary(entries, location) }
                while true {
                    if case .end("dict", _)? = peek() { position += 1; break }
                    guard case .start("key", _, let keySelfClosing, let keyOffset)? = peek() else {
                        throw XMLScanner.Failure(message: "expected <key> or </dict>", offset: self.offset(of: peek()))
                    }
                    position += 1
                    let key = keySelfClosing ? "" : try text(closing: "key")
                    let value = try value(depth: depth + 1)
                    entries.append((key, locator.location(keyOffset), value))
                }
                return .dictionary(entries, location)
            case "array":
                var items: [PlistNode] = []
                if selfClosing { return .array(items, location) }
                while true {
                    if case .end("array", _)? = peek() { position += 1; break }
                    items.append(try value(depth: depth + 1))
                }
                return .array(items, location)
            case "true", "false":
                if !selfClosing { try expectEnd(name) }
                return .bool(name == "true", location)
            case "string":
                return .string(selfClosing ? "" : try text(closing: name), location)
            case "integer", "real":
                return .number(selfClosing ? "" : try text(closing: name).trimmingCharacters(in: .whitespacesAndNewlines), location)
            case "date", "data":
                if !selfClosing { _ = try text(closing: name) }
                return .other(location)
            default:
                throw XMLScanner.Failure(message: "<\(name)> is not a property-list element", offset: offset)
            }
        }
    }
}
