import Foundation
import Testing
import WebPolicyRuntime

@Suite("SHA-256")
struct SHA256Tests {
    /// FIPS 180-4's examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf").
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func knownDigests(input: String, digest: String) {
        #expect(SHA256.hex(input.utf8) == digest)
    }

    /// Every length around the padding boundaries (55, 56, 63, 64, 119, 120 bytes), against
    /// the system's `sha256sum`.
    @Test func agreesWithSha256sumAcrossPaddingBoundaries() throws {
        let tool = ["/usr/bin/sha256sum", "/bin/sha256sum"].first { FileManager.default.isExecutableFile(atPath: $0) }
        try #require(tool != nil, "sha256sum is not installed")
        for length in [1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 121, 200] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool!)
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(bytes))
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(SHA256.hex(bytes) == String(text.prefix(64)), "length \(length)")
        }
    }
}
