import Foundation
import WebPolicyKit
import WebPolicyRuntime

/// The draft of runtime-hosts: the role the bridges' draft names where the code's gate compares
/// a message's origin with hosts it works out at run time (the server the user signed in to).
extension PolicyDraft.Builder {
    /// Over https only: the draft never endorses plain http; the note says how a server on the
    /// user's own network is admitted if the team decides it must be.
    mutating func runtimeHosts(into document: inout DraftDocument) {
        guard !runtimeRoleGates.isEmpty else { return }
        let role = Self.runtimeRole
        var gates: [String] = []
        for gate in runtimeRoleGates where !gates.contains(gate) { gates.append(gate) }
        let places = SchemeScope.list(gates)
        let note = decide("${\(role)}: the server the code compares messages' origins with at run time (\(places)); the app binds it where it learns the address, "
                          + "policy.bind(\"\(role)\", to: url). If that server may be plain http on the user's own network (a self-hosted instance without a certificate), "
                          + "write schemes: [https, http] and http: local-network")
        let value = JSONValue.object([(role, .object([
            ("description", .string("The server the code compares script messages' origins with at run time.")),
            ("schemes", .array([.string("https")])),
        ]))])
        document.add("runtime-hosts", value, comments: ["Hosts the app learns at run time, named by role.", note])
    }
}
