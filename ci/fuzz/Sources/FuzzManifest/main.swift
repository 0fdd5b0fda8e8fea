import FuzzCommon
import WebPolicyRuntime

// The runtime's manifest decoder, what an app reads at start-up: an error lies inside the
// text; a manifest that decodes encodes to text that decodes to the same manifest.


func fuzzManifest(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = text(start, count)
    switch Manifest.decode(input) {
    case .failure(let error):
        let file = SourceFile(path: "fuzz.json", text: input)
        Invariant.checkInside(file.location(at: error.position), of: file, what: error.message)
    case .success(let manifest):
        let written = manifest.serialized()
        guard case .success(let again) = Manifest.decode(written) else {
            Invariant.check(false, "the manifest, encoded again, does not decode:\n\(written)")
            return 0
        }
        Invariant.check(again.serialized() == written, "decode(encode(m)) differs from m:\n\(written)\n\(again.serialized())")
    }
    return 0
}

Fuzzer.run { start, count in fuzzManifest(start, count) }
