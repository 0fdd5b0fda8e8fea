import ArgumentParser
import WebPolicyRuntime

/// `--bind ROLE=URL`: a runtime-hosts role and the server it is bound to, as a trace's `bind`
/// line writes it; what is wrong with a malformed one is said, as a bind line's problems are.
enum RoleBindingArgument {
    static func parse(_ argument: String) throws -> BindRequest {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw ValidationError("write ROLE=URL, such as server=https://cloud.example.com")
        }
        let role = String(argument[..<equals])
        if HostScope.roleName(role) != nil {
            throw ValidationError("write the role's name without ${}: \(role.dropFirst(2).dropLast())=URL")
        }
        let text = String(argument[argument.index(after: equals)...])
        switch CanonicalURL.parse(text) {
        case .failure(let error): throw ValidationError("the URL '\(text)' does not parse: \(error.message)")
        case .success(let url): return BindRequest(role: role, url: url)
        }
    }
}
