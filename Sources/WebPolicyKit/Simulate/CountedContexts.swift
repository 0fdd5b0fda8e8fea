import Foundation
import WebPolicyRuntime

/// The pages of plain lines that name their own (`top=URL`) or their frame (`frame=URL`), for
/// a counted simulation: each worked out once — the URL parsed, its registrable domain found —
/// and kept by its bytes, so that a line whose `top=` repeats the line before's costs a
/// comparison of bytes, as a line under a `page` line costs nothing. Bounded: a trace of a
/// million distinct pages keeps the last few thousand.
struct CountedContexts {
    /// The key of the page last looked up, and that page.
    private var lastTop: [UInt8] = []
    private var lastFrame: [UInt8] = []
    private var last: DecisionEngine.CountedPage?
    private var lastIsKnown = false
    /// nil: a page the lines cannot be counted on (a URL not canonical as written).
    private var pages: [Key: DecisionEngine.CountedPage?] = [:]
    /// The pages of lines that name a frame and no top: on the view's page, forgotten when it
    /// moves (`viewMoved`).
    private var framesOnView: [Key: DecisionEngine.CountedPage?] = [:]
    /// The view's page method every page kept was worked out with.
    private var pageMethod = "GET"

    static let capacity = 4_096

    private struct Key: Hashable {
        var top: [UInt8]
        var frame: [UInt8]

        /// The bytes at once: an array's own hashing feeds the hasher one byte at a time.
        func hash(into hasher: inout Hasher) {
            top.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(0xFF as UInt8)
            frame.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The page `line` names, in `block`; nil when it cannot be counted (a frame without a
    /// top in a view that shows nothing yet).
    /// `state` is borrowed, not copied: a copy of the view's state retained its URLs and
    /// bindings on every line.
    mutating func page(of line: PlainLine, in block: UnsafeBufferPointer<UInt8>, state: borrowing WebViewState, engine: DecisionEngine) -> DecisionEngine.CountedPage? {
        let top = UnsafeBufferPointer(rebasing: block[Int(line.topStart)..<Int(line.topEnd)])
        let frame = UnsafeBufferPointer(rebasing: block[Int(line.frameStart)..<Int(line.frameEnd)])
        // A page loaded by another method: what a load's `request-method` sees changed.
        if state.pageMethod != pageMethod {
            forget()
            pageMethod = state.pageMethod
        }
        if lastIsKnown, Self.same(lastTop, top), Self.same(lastFrame, frame) { return last }
        let key = Key(top: Array(top), frame: Array(frame))
        if let kept = top.isEmpty ? framesOnView[key] : pages[key] {
            remember(key, kept)
            return kept
        }
        let page: DecisionEngine.CountedPage?
        if frame.isEmpty {
            page = Self.page(top: top, frame: frame, state: state, engine: engine)
        } else {
            // An iframe on a page: the page's own entry (its top worked out once), then the
            // frame on it.
            let onPage = top.isEmpty ? viewPage(state: state, engine: engine) : pageOfTop(top, state: state, engine: engine)
            page = onPage.flatMap { base in Self.url(frame).map { engine.countedPage(framing: base, frame: $0) } }
        }
        if top.isEmpty {
            framesOnView[key] = page
        } else {
            if pages.count >= Self.capacity { pages.removeAll(keepingCapacity: true) }
            pages[key] = page
        }
        remember(key, page)
        return page
    }

    /// The view's page moved: the pages of lines that name a frame on it are no longer theirs.
    mutating func viewMoved() {
        guard !framesOnView.isEmpty || lastTop.isEmpty else { return }
        framesOnView.removeAll()
        if lastTop.isEmpty { lastIsKnown = false }
    }

    /// The page of lines that name `top` and no frame, kept as theirs.
    private mutating func pageOfTop(_ top: UnsafeBufferPointer<UInt8>, state: borrowing WebViewState, engine: DecisionEngine) -> DecisionEngine.CountedPage? {
        let key = Key(top: Array(top), frame: [])
        if let kept = pages[key] { return kept }
        let page = Self.page(top: top, frame: UnsafeBufferPointer(start: nil, count: 0), state: state, engine: engine)
        pages[key] = page
        return page
    }

    /// The view's own page, as lines that name a frame and no top see it.
    private mutating func viewPage(state: borrowing WebViewState, engine: DecisionEngine) -> DecisionEngine.CountedPage? {
        let key = Key(top: [], frame: [])
        if let kept = framesOnView[key] { return kept }
        let page = state.top.flatMap { engine.countedPage(top: $0, frame: nil, pageMethod: state.pageMethod) }
        framesOnView[key] = page
        return page
    }

    /// A URL canonical as written (matched where it lies, it must be the URL the parser makes).
    private static func url(_ bytes: UnsafeBufferPointer<UInt8>) -> CanonicalURL? {
        guard CanonicalURL.SimpleURL(bytes)?.isCanonical == true, case .success(let parsed) = CanonicalURL.parse(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return parsed
    }

    /// The page worked out from the URLs' bytes; nil where a line must be decided as any
    /// other: a URL not canonical as written, a frame in a view that shows nothing yet.
    private static func page(top: UnsafeBufferPointer<UInt8>, frame: UnsafeBufferPointer<UInt8>, state: borrowing WebViewState, engine: DecisionEngine) -> DecisionEngine.CountedPage? {
        guard let topURL = top.isEmpty ? state.top : url(top) else { return nil }
        var frameURL: CanonicalURL?
        if !frame.isEmpty {
            guard let parsed = url(frame) else { return nil }
            frameURL = parsed
        }
        return engine.countedPage(top: topURL, frame: frameURL, pageMethod: state.pageMethod)
    }

    private mutating func remember(_ key: Key, _ page: DecisionEngine.CountedPage?) {
        (lastTop, lastFrame, last, lastIsKnown) = (key.top, key.frame, page, true)
    }

    private mutating func forget() {
        pages.removeAll(keepingCapacity: true)
        framesOnView.removeAll()
        (lastTop, lastFrame, last, lastIsKnown) = ([], [], nil, false)
    }

    /// Byte for byte, without a generic comparison per line.
    @inline(__always)
    private static func same(_ kept: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kept.count == bytes.count else { return false }
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return true }
        return kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
    }
}
