extension String {
    /// Whether `needle`'s bytes occur in this text — a plain byte search, where Foundation's
    /// `contains` would bridge both strings to NSString first.
    func containsBytes(of needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return true }
        var text = self
        return text.withUTF8 { haystack in
            guard haystack.count >= pattern.count else { return false }
            for start in 0...(haystack.count - pattern.count) where haystack[start] == first {
                if haystack[start..<start + pattern.count].elementsEqual(pattern) { return true }
            }
            return false
        }
    }
}
