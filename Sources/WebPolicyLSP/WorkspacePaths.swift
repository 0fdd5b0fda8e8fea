import Foundation
import WebPolicyKit

/// Files named in findings as `lint` run in the workspace's folder names them: relative to it.
/// The server reads every file by the editor's absolute path, so a message that names one (an
/// include cycle, an include not found) would spell it in full where the command line, run
/// from the workspace in CI, says `err/support/cycle-b.yaml`.
enum WorkspacePaths {
    static func relative(_ diagnostic: Diagnostic, root: String) -> Diagnostic {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard prefix.count > 1 else { return diagnostic }
        func shorten(_ text: String) -> String { text.contains(prefix) ? text.replacingOccurrences(of: prefix, with: "") : text }
        var shortened = diagnostic
        shortened.message = shorten(diagnostic.message)
        shortened.hint = diagnostic.hint.map(shorten)
        shortened.notes = diagnostic.notes.map { note in
            var note = note
            note.message = shorten(note.message)
            return note
        }
        return shortened
    }
}
