import CertificateRules
import Foundation
import NIOStack
import Reference
import X509

/// The differential check of the two stacks' readings of a certificate: the facts OpenSSL gives (the reference stack)
/// and the facts swift-certificates and SwiftASN1 give (the NIO stack) must be equal, so that one set of rules gives
/// one verdict. For a certificate swift-certificates cannot parse, the serial number and key the NIO stack then reads
/// from the DER must be OpenSSL's. A certificate OpenSSL refuses is no input: the reference stack never judges it.
enum FactsDifference {
    /// What differs, or `nil` when the readings agree.
    static func of(_ der: [UInt8]) -> String? {
        guard let openSSL = CertificateFacts(openSSLDER: der, depth: 0) else { return nil }
        guard let certificate = try? Certificate(derEncoded: der) else {
            guard let unparsed = CertificateFacts.unparsed(der: der, depth: 0) else { return nil }
            if unparsed.serialNumber == openSSL.serialNumber, unparsed.publicKey == openSSL.publicKey { return nil }
            return
                "unparsed: serial \(unparsed.serialNumber) key \(unparsed.publicKey); OpenSSL: serial \(openSSL.serialNumber) key \(openSSL.publicKey)"
        }
        let swift = CertificateFacts(swiftCertificates: certificate, depth: 0)
        guard swift != openSSL else { return nil }
        let left = Mirror(reflecting: swift).children
        let right = Array(Mirror(reflecting: openSSL).children)
        return zip(left, right).compactMap { lhs, rhs in
            "\(lhs.value)" == "\(rhs.value)" ? nil : "\(lhs.label ?? "?"): \(lhs.value) (swift-certificates) vs \(rhs.value) (OpenSSL)"
        }.joined(separator: "; ")
    }
}

#if FUZZING
/// libFuzzer's entry point (`NIOStack/Scripts/fuzz`): a disagreement stops the run with the input saved.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateFacts(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let difference = FactsDifference.of(Array(UnsafeBufferPointer(start: data, count: size))) {
        preconditionFailure("the stacks read different facts: \(difference)")
    }
    return 0
}
#else
/// Without the fuzzer: replays the files named (a corpus, or a finding the fuzzer saved) and prints each disagreement.
@main
struct FactsFuzzReplay {
    static func main() throws {
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
    }
}
#endif
