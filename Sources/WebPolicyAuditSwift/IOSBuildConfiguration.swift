// Built only with the SwiftAudit trait: without it this module is empty and needs no swift-syntax.
#if SwiftAudit
import SwiftIfConfig
import SwiftSyntax

/// An iOS device build, release or debug, as `#if` sees it: `DEBUG` set in debug only (Xcode's
/// default `SWIFT_ACTIVE_COMPILATION_CONDITIONS`), arm64, not the simulator, every module
/// importable (the app builds against what it imports). Code under a condition this cannot
/// answer is parsed as inactive by swift-syntax; the collector asks both configurations, so
/// such code is reported at its lower weight rather than dropped.
struct IOSBuildConfiguration: BuildConfiguration {
    var debug: Bool

    func isCustomConditionSet(name: String) throws -> Bool { debug && name == "DEBUG" }
    func hasFeature(name: String) throws -> Bool { false }
    func hasAttribute(name: String) throws -> Bool { true }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool { true }
    func isActiveTargetOS(name: String) throws -> Bool { name == "iOS" }
    func isActiveTargetArchitecture(name: String) throws -> Bool { name == "arm64" }
    func isActiveTargetEnvironment(name: String) throws -> Bool { false }
    func isActiveTargetRuntime(name: String) throws -> Bool { name == "_ObjC" }
    func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
    func isActiveTargetObjectFileFormat(name: String) throws -> Bool { name == "MachO" }
    var targetPointerBitWidth: Int { 64 }
    var targetAtomicBitWidths: [Int] { [8, 16, 32, 64, 128] }
    var endianness: Endianness { .little }
    var languageVersion: VersionTuple { VersionTuple(6, 0) }
    var compilerVersion: VersionTuple { VersionTuple(6, 2) }
}
#endif
