import Foundation
import Testing
import WebPolicyRuntime

/// `CanonicalURL` against WebKit itself: every case of the web-platform-tests URL suite whose
/// base cannot change the result, and every WPT IDNA case as `https://INPUT/x`, with the answer
/// WebKitGTK gave (`new URL()`), recorded in Tests/Fixtures/url/webkit-expectations.json by
/// ci/webkit-conformance/url_conformance.py — which CI reruns against the real WebKit on every
/// run, so that this test and that lane together fail on any disagreement with WebKit.
@Suite("URLs as WebKit parses them")
struct URLConformanceTests {
    struct Expectation {
        var source: String
        var input: String
        var webkit: String?
    }

    static let expectations: [Expectation] = {
        // webpolicy's JSON reader: WPT's inputs hold lone surrogates (`\\ud800`), which it
        // reads as U+FFFD, as a Swift string must — and as WebKit encodes them in a URL.
        let url = Fixtures.url("Tests/Fixtures/url/webkit-expectations.json")
        guard let data = try? Data(contentsOf: url), case .success(let root) = JSONDocument.parse(String(decoding: data, as: UTF8.self)) else { return [] }
        return (root.array ?? []).map { item in
            Expectation(source: item.member("source")?.string ?? "", input: item.member("input")?.string ?? "", webkit: item.member("webkit")?.string)
        }
    }()

    @Test func theSuitesAreThere() {
        let sources = Dictionary(grouping: Self.expectations, by: \.source).mapValues(\.count)
        #expect((sources["urltestdata"] ?? 0) >= 700 && (sources["IdnaTestV2"] ?? 0) >= 2_000 && (sources["toascii"] ?? 0) >= 80, "\(sources)")
    }

    @Test(arguments: ["urltestdata", "toascii", "IdnaTestV2"])
    func everyCaseIsParsedAsWebKitDoes(source: String) {
        var disagreements: [String] = []
        let cases = Self.expectations.filter { $0.source == source }
        for expectation in cases {
            let ours: String?
            switch CanonicalURL.parse(expectation.input) {
            case .success(let url): ours = url.description
            case .failure: ours = nil
            }
            if ours != expectation.webkit {
                disagreements.append("\(expectation.input.debugDescription): webpolicy \(ours?.debugDescription ?? "fails"), WebKit \(expectation.webkit?.debugDescription ?? "fails")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(cases.count) \(source) cases differ from WebKit:\n\(disagreements.prefix(60).joined(separator: "\n"))")
    }
}
