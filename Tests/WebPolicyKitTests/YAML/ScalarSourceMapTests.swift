import Testing
@testable import WebPolicyKit
@testable import WebPolicyRuntime

/// Offsets inside a YAML value map back to the characters that produced them.
@Suite("Scalar source map")
struct ScalarSourceMapTests {
    /// The value of `key` in a one-key document, and the source position of each value scalar.
    func map(_ yaml: String) throws -> (value: String, positions: [SourcePosition]) {
        let file = SourceFile(path: "t.yaml", text: yaml)
        let (root, diagnostics) = YAMLComposer.compose(file)
        #expect(diagnostics.isEmpty)
        let node = try #require(root?.mapping?.first?.value)
        let scalar = try #require(node.scalar)
        let ranges = try #require(ScalarSourceMap.ranges(value: scalar.value, style: scalar.style, range: node.range, in: file))
        return (scalar.value, ranges.map(\.start))
    }

    @Test func plainScalarsMapOneToOne() throws {
        let (value, positions) = try map("k: abc\n")
        #expect(value == "abc")
        #expect(positions == [SourcePosition(line: 1, column: 4), SourcePosition(line: 1, column: 5), SourcePosition(line: 1, column: 6)])
    }

    @Test func doubledSingleQuotesAreOneCharacter() throws {
        let (value, positions) = try map("k: 'it''s'\n")
        #expect(value == "it's")
        #expect(positions.map(\.column) == [5, 6, 7, 9])
    }

    @Test func doubleQuotedEscapesSpanTheirWholeSpelling() throws {
        let (value, positions) = try map("k: \"a\\x41\\u00e9\\\\b\"\n")
        #expect(value == "aAé\\b")
        #expect(positions.map(\.column) == [5, 6, 10, 16, 18])
    }

    @Test func foldedPlainLinesBecomeASpace() throws {
        let (value, positions) = try map("k: ab\n   cd\n")
        #expect(value == "ab cd")
        #expect(positions[3] == SourcePosition(line: 2, column: 4))
    }

    @Test func emptyLinesInQuotedScalarsBecomeNewlines() throws {
        let (value, positions) = try map("k: \"ab\n\n   cd\"\n")
        #expect(value == "ab\ncd")
        #expect(positions[3] == SourcePosition(line: 3, column: 4))
    }

    @Test func literalBlockScalarsKeepTheirLines() throws {
        let (value, positions) = try map("k: |\n  ab\n  cd\n")
        #expect(value == "ab\ncd\n")
        #expect(positions[3] == SourcePosition(line: 3, column: 3))
    }

    @Test func foldedBlockScalarsJoinLines() throws {
        let (value, positions) = try map("k: >-\n  ab\n  cd\n")
        #expect(value == "ab cd")
        #expect(positions[3] == SourcePosition(line: 3, column: 3))
    }

    @Test func anchorsAndTagsBeforeTheScalarAreSkipped() throws {
        let (value, positions) = try map("k: &a !!str 'xy'\n")
        #expect(value == "xy")
        #expect(positions.map(\.column) == [14, 15])
    }

    @Test func unmappableScalarsFallBackToTheWholeScalar() {
        // An explicit indentation indicator depends on the parent's indentation: not mapped.
        let file = SourceFile(path: "t.yaml", text: "k: |2\n   ab\n")
        let (root, _) = YAMLComposer.compose(file)
        let node = root!.mapping![0].value
        let range = ScalarSourceMap.range(of: 1, length: 1, in: ScalarSourceMap.mapping(value: node.scalar!.value, style: .literal, range: node.range, in: file))
        #expect(range == node.range)
    }

    /// The verbatim shortcut (a value written as is on one line) answers as the walk does, for
    /// every offset and length, and steps aside for everything the walk maps differently.
    @Test(arguments: [
        "k: abc\n", "k: 'abc'\n", "k: \"abc\"\n", "k: 'it''s'\n", "k: \"a\\x41b\"\n", "k: \"a\\\\b\"\n",
        "k: &a !!str 'xy'\n", "k: &a xy\n", "k: ab\n   cd\n", "k: |\n  ab\n", "k: >-\n  ab\n  cd\n", "k: 'a''\n   b'\n",
        "k: héllo wörld\n", "k: \"x\"\n", "- [a, 'b c', \"d\"]\n", "{k: v w}\n", "k: \"\"\n", "k: ''\n",
    ])
    func verbatimShortcutAgreesWithTheWalk(_ yaml: String) {
        let file = SourceFile(path: "t.yaml", text: yaml)
        var scalars: [YAMLNode] = []
        var pending = YAMLComposer.compose(file).root.map { [$0] } ?? []
        while let node = pending.popLast() {
            switch node.content {
            case .scalar: scalars.append(node)
            case .sequence(let items): pending += items
            case .mapping(let pairs): pending += pairs.flatMap { [$0.key, $0.value] }
            }
        }
        #expect(!scalars.isEmpty)
        for node in scalars {
            let scalar = node.scalar!
            let count = scalar.value.unicodeScalars.count
            for offset in -1...(count + 1) {
                for length in 0...3 {
                    let fast = ScalarSourceMap.range(of: offset, length: length, in: ScalarSourceMap.mapping(value: scalar.value, style: scalar.style, range: node.range, in: file))
                    let walked = ScalarSourceMap.range(of: offset, length: length, in: ScalarSourceMap.walkedMapping(value: scalar.value, style: scalar.style, range: node.range, in: file))
                    #expect(fast == walked, "\(yaml.debugDescription) '\(scalar.value)' offset \(offset) length \(length)")
                }
            }
        }
    }
}
