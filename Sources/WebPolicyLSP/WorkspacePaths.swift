import Foundation
import WebPolicyKit

/// Files named in findings and lenses as `lint` and `simulate` run in the workspace's folder
/// name them: relative to it. The server reads every file by the editor's absolute path, so a
/// message that names one (an include cycle, an include not found, the policy a trace's line
/// was decided by) would spell it in full where the command line, run from the workspace in
/// CI, says `err/support/cycle-b.yaml`.
enum WorkspacePaths {
    static func relative(_ diagnostic: Diagnostic, root: String) -> Diagnostic {
        var shortened = diagnostic
        shortened.message = shorten(diagnostic.message, root: root)
        shortened.hint = diagnostic.hint.map { shorten($0, root: root) }
        shortened.notes = diagnostic.notes.map { note in
            var note = note
            note.message = shorten(note.message, root: root)
            return note
        }
        return shortened
    }

    static func shorten(_ text: String, root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard prefix.count > 1, text.contains(prefix) else { return text }
        return text.replacingOccurrences(of: prefix, with: "")
    }
}
