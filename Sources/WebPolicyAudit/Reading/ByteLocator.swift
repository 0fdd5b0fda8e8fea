import WebPolicyRuntime

/// Line and column of a byte offset, as webpolicy counts them everywhere: lines from 1,
/// broken where `SourceFile` breaks them (`\r\n`, `\r`, `\n`, U+0085, U+2028, U+2029) so a
/// report's snippet shows the line the position is on; columns in Unicode scalars from 1 (a
/// UTF-8 continuation byte does not start a column).
package struct ByteLocator {
    package let path: String
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                index += 1
                starts.append(index + 1)
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                index += 2
                starts.append(index + 1)
            }
            index += 1
        }
        lineStarts = starts
    }

    package func position(_ offset: Int) -> SourcePosition {
        let clamped = max(0, min(offset, bytes.count))
        // The last line start at or before the offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= clamped { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = lineStarts[low]
        // A leading byte-order mark is no column: SourceFile drops it, as libyaml does.
        if index == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = min(3, clamped) }
        while index < clamped {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourcePosition(line: low + 1, column: column)
    }

    package func location(_ start: Int, _ end: Int) -> SourceLocation {
        SourceLocation(path: path, range: SourceRange(start: position(start), end: position(max(start, end))))
    }

    package func location(_ offset: Int) -> SourceLocation { location(offset, offset + 1) }
}
