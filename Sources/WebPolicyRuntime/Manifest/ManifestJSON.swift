/// The manifest file: written by `webpolicy compile`, read by the runtime. Defaults are written
/// out, so a reader needs no knowledge of the policy format; locations are `file:line:column`
/// with the file relative to the policy's folder.
extension Manifest {
    /// The manifest as JSON text. `path` turns a location's file into the form written (compile
    /// makes it relative to the policy's folder, so the same policy gives the same bytes from
    /// any working folder).
    public func serialized(path: (String) -> String = { $0 }) -> String {
        let members = withoutActuallyEscaping(path) { path in
            let writer = ManifestWriter(path: path)
            return Manifest.parts.compactMap { part in part.write(self, writer).map { (part, $0) } }
        }
        // Version 2 adds `navigation` and `appBoundDomains`, version 3 `bridges` and `webView`:
        // an older reader would ignore them (let the view go anywhere, let every frame call
        // every handler), so a manifest says the lowest version that holds what it has, and
        // one without them stays readable by every runtime.
        let written = members.map { $0.0.version(of: self) }.max() ?? 1
        var top: [(String, JSONValue)] = [("webpolicyManifest", .int(written))]
        var policyInfo: [(String, JSONValue)] = [("name", .string(policyName))]
        if let policyDescription { policyInfo.append(("description", .string(policyDescription))) }
        top.append(("policy", .object(policyInfo)))
        top.append(("target", .object([("ios", .string(targetIOS)), ("distribution", .string(distribution))])))
        top += members.map { ($0.0.member, $0.1) }
        return JSONValue.object(top).serialized()
    }

    /// A problem with a manifest's text, at its line and column.
    public struct DecodingError: Error, Sendable, Equatable {
        public var message: String
        public var position: SourcePosition
        /// The file's major version, when it is one this runtime does not read.
        public var unsupportedVersion: Int?
    }

    /// Reads a manifest file. Members it does not know are ignored (a newer minor addition);
    /// a newer major version is refused before anything else is read. Locations keep the file
    /// as written (relative to the policy's folder). `readingSources: false` passes over each
    /// list's `sources` unread (they come back empty): what an app needs when every list has a
    /// usable engine image, which holds them.
    public static func decode(_ text: String, readingSources: Bool = true) -> Result<Manifest, DecodingError> {
        decode(bytes: Array(text.utf8), readingSources: readingSources)
    }

    /// The same from the file's bytes.
    public static func decode(bytes: [UInt8], readingSources: Bool = true) -> Result<Manifest, DecodingError> {
        let root: JSONNode
        switch JSONDocument.parse(bytes: bytes, skipping: readingSources ? [] : ["sources"]) {
        case .failure(let error): return .failure(DecodingError(message: error.message, position: error.position))
        case .success(let node): root = node
        }
        do {
            return .success(try ManifestReader(root: root).manifest())
        } catch {
            return .failure(error)
        }
    }
}
