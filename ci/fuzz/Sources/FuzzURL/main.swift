import FuzzCommon
import WebPolicyRuntime

// URL canonicalisation (the WHATWG parser with WebKit's choices): a URL that parses
// canonicalises to itself a second time; an error's offset lies in the input; the request
// form is the canonical URL without its fragment.


func fuzzURL(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = text(start, count)
    switch CanonicalURL.parse(input) {
    case .failure(let error):
        Invariant.check(error.offset >= 0 && error.offset <= input.unicodeScalars.count, "error offset \(error.offset) outside \(input.unicodeScalars.count) scalars")
    case .success(let url):
        guard case .success(let again) = CanonicalURL.parse(url.description) else {
            Invariant.check(false, "'\(input)' canonicalises to '\(url.description)', which does not parse")
            return 0
        }
        Invariant.check(again.description == url.description, "'\(input)' → '\(url.description)' → '\(again.description)'")
        // The request form is the URL cut before its fragment, as WebKit's
        // `stringWithoutFragmentIdentifier` cuts it (not a URL of its own: an opaque path's
        // trailing spaces stay).
        Invariant.check(url.description.hasPrefix(url.requestString), "request form '\(url.requestString)' is not the start of '\(url.description)'")
    }
    return 0
}

Fuzzer.run { start, count in fuzzURL(start, count) }
