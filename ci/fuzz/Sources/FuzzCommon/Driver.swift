import Foundation

/// libFuzzer's driver, called from each target's `main`. SwiftPM links an executable's entry
/// point under its own name (`<Target>_main`, for testable executables), so a target cannot
/// leave `main` to libFuzzer; it calls the driver libFuzzer exports for this instead
/// (`LLVMFuzzerRunDriver`, LLVM 13 and later), with the same flags and output.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

public enum Fuzzer {
    public static func run(_ test: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> Never {
        // libFuzzer reports a crash itself; Swift's backtracer would stall each crash for
        // seconds symbolicating (and an abort() in an invariant is a crash to keep).
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
    }
}
