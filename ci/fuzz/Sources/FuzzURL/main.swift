import Foundation
import FuzzCommon
import WebPolicyRuntime

// URL canonicalisation (a port of WebKit's WTF::URLParser): a URL that parses canonicalises to
// itself a second time; an error's offset lies in the input; the request form is the canonical
// URL without its fragment. Whether WebKit agrees is asked of WebKitGTK after a run, on the
// corpus (ci/fuzz/url_webkit.py): a web view cannot answer inside a fuzz loop.

// With FUZZ_URL_ANSWERS=FILE each input and its canonical form (null for a failure) are
// appended to FILE as a JSON line: ci/fuzz/url_webkit.py runs a corpus through this (-runs=0)
// and asks WebKit the same.
let answers: FileHandle? = ProcessInfo.processInfo.environment["FUZZ_URL_ANSWERS"].flatMap { path in
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    return FileHandle(forWritingAtPath: path)
}

func record(_ input: String, _ href: String?) {
    guard let answers, let line = try? JSONSerialization.data(withJSONObject: [input, href ?? NSNull()] as [Any]) else { return }
    answers.write(line + Data("\n".utf8))
}

func fuzzURL(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = text(start, count)
    let parsed = CanonicalURL.parse(input)
    if answers != nil {
        if case .success(let url) = parsed { record(input, url.description) } else { record(input, nil) }
    }
    switch parsed {
    case .failure(let error):
        Invariant.check(error.offset >= 0 && error.offset <= input.unicodeScalars.count, "error offset \(error.offset) outside \(input.unicodeScalars.count) scalars")
    case .success(let url):
        guard case .success(let again) = CanonicalURL.parse(url.description) else {
            Invariant.check(false, "'\(input)' canonicalises to '\(url.description)', which does not parse")
            return 0
        }
        // WebKit reads one shape of its own output differently the second time: a `|` drive
        // letter that became a host-less file URL's first segment after `..` (`file:a/../c|/x`
        // is `file:///c|/x`, which reads as `file:///c:/x`; WebKitGTK answers both so).
        Invariant.check(again.description == url.description || isDriveLetterAfterDotDot(url.description),
                        "'\(input)' → '\(url.description)' → '\(again.description)'")
        // The request form is the URL cut before its fragment, as WebKit's
        // `stringWithoutFragmentIdentifier` cuts it (not a URL of its own: an opaque path's
        // trailing spaces stay).
        Invariant.check(url.description.hasPrefix(url.requestString), "request form '\(url.requestString)' is not the start of '\(url.description)'")
    }
    return 0
}

/// `file:///X|` followed by the end, `/`, `?` or `#`.
func isDriveLetterAfterDotDot(_ url: String) -> Bool {
    let scalars = Array(url.unicodeScalars)
    let prefix = Array("file:///".unicodeScalars)
    guard scalars.count >= prefix.count + 2, Array(scalars[..<prefix.count]) == prefix else { return false }
    let letter = scalars[prefix.count], bar = scalars[prefix.count + 1]
    let after = scalars.count > prefix.count + 2 ? scalars[prefix.count + 2] : "/"
    return (("a"..."z").contains(letter) || ("A"..."Z").contains(letter)) && bar == "|" && "/?#".unicodeScalars.contains(after)
}

Fuzzer.run { start, count in fuzzURL(start, count) }
