import CertificateRules
import Foundation
import NIOStack
import Reference
import X509

/// The differential check of the two stacks' readings of a certificate: where OpenSSL (the reference stack) and
/// swift-certificates (the NIO stack) both parse it, the facts each stack reads must be equal, so that one set of rules
/// gives one verdict. A certificate either library refuses is refused by that stack whatever its facts (the NIO stack
/// only looks for the profile's reason in its serial and key), so only the reading of it must end; one with an
/// extension that does not decode is refused by both, so only their readings of its extensions must agree.
enum FactsDifference {
    /// What differs, or `nil` when the readings agree.
    static func of(_ der: [UInt8]) -> String? {
        guard let certificate = try? Certificate(derEncoded: der) else {
            _ = CertificateFacts.unparsed(der: der, depth: 0)
            return nil
        }
        guard let openSSL = CertificateFacts(openSSLDER: der, depth: 0) else { return nil }
        let swift = CertificateFacts(swiftCertificates: certificate, depth: 0)
        // An extension that does not decode is refused by both stacks (the extension-encoding rule; OpenSSL's own
        // check first on the reference stack), whatever else is read: then only the extensions must agree.
        // An extension that appears twice is refused by both stacks too (each library reads a different one of the two).
        let refusedByBoth =
            swift.extensions.contains { !$0.isWellFormed } || Set(swift.extensions.map(\.oid)).count < swift.extensions.count
        if swift.extensions == openSSL.extensions, refusedByBoth { return nil }
        guard swift != openSSL else { return nil }
        let left = Mirror(reflecting: swift).children
        let right = Array(Mirror(reflecting: openSSL).children)
        return zip(left, right).compactMap { lhs, rhs in
            "\(lhs.value)" == "\(rhs.value)" ? nil : "\(lhs.label ?? "?"): \(lhs.value) (swift-certificates) vs \(rhs.value) (OpenSSL)"
        }.joined(separator: "; ")
    }
}

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
