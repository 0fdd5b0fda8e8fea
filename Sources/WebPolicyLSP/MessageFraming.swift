import Foundation

/// The Language Server Protocol's base protocol (LSP 3.17, "Base Protocol"): each message is a
/// header part — `Content-Length: N`, any other header ignored, each line ending in CRLF, a
/// blank line after the last — then N bytes of JSON. Bytes arrive in pieces of any size.
public struct MessageFraming: Sendable {
    /// What the framing cannot go on from: the stream is broken, and the server stops.
    public struct BrokenStream: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts (bytes before it are dropped now and then).
    private var start = 0

    public init() {}

    /// Adds bytes read from the stream; the bodies of the messages they complete, in order.
    public mutating func add(_ bytes: some Sequence<UInt8>) throws(BrokenStream) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var bodies: [[UInt8]] = []
        while let (length, bodyStart) = try header() {
            guard buffer.count - bodyStart >= length else { break }
            bodies.append(Array(buffer[bodyStart..<(bodyStart + length)]))
            start = bodyStart + length
        }
        if start > 0, start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return bodies
    }

    /// The body's length and start when a whole header has arrived.
    private func header() throws(BrokenStream) -> (length: Int, bodyStart: Int)? {
        let end: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        guard buffer.count - start >= 4 else { return nil }
        var index = start
        while index + 4 <= buffer.count, !buffer[index..<(index + 4)].elementsEqual(end) { index += 1 }
        guard index + 4 <= buffer.count else {
            if buffer.count - start > 8_192 { throw BrokenStream(description: "a message header longer than 8 KB, with no blank line after it") }
            return nil
        }
        var length: Int?
        for line in String(decoding: buffer[start..<index], as: UTF8.self).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw BrokenStream(description: "a header line without a colon: \(line.prefix(80))") }
            // Header names are case-insensitive, as in HTTP.
            if line[..<colon].lowercased() == "content-length" {
                guard let value = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)), value >= 0 else {
                    throw BrokenStream(description: "Content-Length is not a number: \(line.prefix(80))")
                }
                length = value
            }
        }
        guard let length else { throw BrokenStream(description: "a message without Content-Length") }
        return (length, index + 4)
    }

    /// `body` framed for the stream.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}
