import FuzzCommon
import WebPolicyAudit
import WebPolicyKit
import WebPolicyRuntime

// The audit's own readers — the Objective-C tokenizer and fact reader, the property-list
// reader (XML and, through Foundation, binary) and the Interface Builder reader: arbitrary
// bytes give facts or problems, every one of them at a place inside the file, never a crash
// or a hang. The first byte picks the reader; the rest is the file.

func fuzzAppFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let all = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let bytes = Array(all.dropFirst())
    let file = SourceFile(path: "fuzz", text: String(decoding: bytes, as: UTF8.self))
    var facts: FileFacts
    switch all[0] % 3 {
    case 0:
        facts = ObjCFactReader.read(bytes, path: "fuzz")
    case 1:
        facts = FileFacts(path: "fuzz", language: .plist)
        switch PlistReader.read(bytes, path: "fuzz") {
        case .success(let root):
            facts.plist = InfoPlist(path: "fuzz", isEntitlements: false, root: root)
        case .failure(let problem):
            facts.problems.append(problem)
        }
    default:
        facts = InterfaceBuilderReader.read(bytes, path: "fuzz")
    }
    // Binary and old-style plists have no lines: Foundation's reader places them at 1:1.
    guard !bytes.starts(with: Array("bplist".utf8)) else { return 0 }
    for fact in facts.facts + facts.constructions {
        Invariant.checkInside(fact.site.location, of: file, what: "a fact")
    }
    for problem in facts.problems {
        Invariant.checkInside(problem.location, of: file, what: problem.message)
    }
    if let plist = facts.plist {
        for location in [plist.transportSecurity?.location, plist.appBoundDomains?.location, plist.queriesSchemes?.location].compactMap({ $0 }) {
            Invariant.checkInside(location, of: file, what: "a plist key")
        }
        for scheme in plist.urlSchemes { Invariant.checkInside(scheme.location, of: file, what: "a URL scheme") }
    }
    return 0
}

Fuzzer.run { start, count in fuzzAppFile(start, count) }
