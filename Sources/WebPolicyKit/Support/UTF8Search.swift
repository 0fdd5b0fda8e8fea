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

    /// Whether `prefix` follows `marker` and blanks anywhere: a `# webpolicy:` comment may be
    /// in the text. `containsBytes(of: "webpolicy:")` alone is true of every policy, whose
    /// first key is `webpolicy:`.
    func containsBytes(of prefix: String, afterMarker marker: String) -> Bool {
        let pattern = Array(prefix.utf8), lead = Array(marker.utf8)
        guard let first = pattern.first, !lead.isEmpty else { return containsBytes(of: prefix) }
        var text = self
        return text.withUTF8 { haystack in
            guard haystack.count >= pattern.count else { return false }
            for start in 0...(haystack.count - pattern.count) where haystack[start] == first {
                guard haystack[start..<start + pattern.count].elementsEqual(pattern) else { continue }
                var before = start
                while before > 0, haystack[before - 1] == UInt8(ascii: " ") || haystack[before - 1] == UInt8(ascii: "\t") { before -= 1 }
                if before >= lead.count, haystack[(before - lead.count)..<before].elementsEqual(lead) { return true }
            }
            return false
        }
    }
}
