import ArgumentParser
import WebPolicyRuntime

/// `--bind ROLE=URL`: a runtime-hosts role and the server it is bound to, as a trace's `bind`
/// line writes it.
struct RoleBindingArgument: ExpressibleByArgument {
    let request: BindRequest

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex,
              case .success(let url) = CanonicalURL.parse(String(argument[argument.index(after: equals)...])) else { return nil }
        request = BindRequest(role: String(argument[..<equals]), url: url)
    }

    static var defaultValueDescription: String { "ROLE=URL" }
}
