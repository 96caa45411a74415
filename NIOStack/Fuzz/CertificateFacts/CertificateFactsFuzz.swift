import CertificateFactsDifference
import Foundation

/// libFuzzer's driver, started from this executable's own entry point (SwiftPM names the entry point of an executable
/// target itself, so libFuzzer's `main` is never linked).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// One fuzzer input: a disagreement stops the run with the input saved. (libFuzzer's runtime also links it by this name.)
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    if let difference = FactsDifference.of(Array(UnsafeBufferPointer(start: data, count: size))) {
        preconditionFailure("the stacks read different facts: \(difference)")
    }
    return 0
}

/// Under `-D FUZZING` (NIOStack/Scripts/fuzz) libFuzzer's driver; otherwise a replay of the files named (a corpus, or a
/// finding the fuzzer saved), printing each disagreement.
@main
struct FactsFuzz {
    static func main() throws {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOne))
        #else
        var differences = 0
        for path in CommandLine.arguments.dropFirst() {
            let der = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            if let difference = FactsDifference.of(der) {
                differences += 1
                print("\(path): \(difference)")
            }
        }
        print("\(CommandLine.arguments.count - 1) inputs, \(differences) disagreements")
        if differences > 0 { exit(1) }
        #endif
    }
}
