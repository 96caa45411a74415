import Foundation

/// libFuzzer entry point: the offline chain verifier (the code every handshake runs) fed arbitrary DER.
///
/// The first byte chooses the host, the profile and whether revocation applies; the rest is read as DER elements
/// (an element whose length overruns the input takes what is left), the last of them the stapled OCSP response when
/// stapling is on. Compiled by `Scripts/fuzz` with the sources of `NetworkCore`, `Pinning` and the reference stack's
/// validation, in one module.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChainVerifier(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let choice = bytes[0]
    var elements = derElements(bytes.dropFirst())
    let stapling = choice & 0x10 != 0
    let staple = stapling && elements.count > 1 ? elements.removeLast() : nil
    let served = elements.map { ServerCertificate(der: Data($0), spkiSHA256: "", subject: "", issuer: "") }
    let host = ["localhost", "127.0.0.1", "::1", "a.example.test", "*.example.test", ""][Int(choice & 0x07) % 6]
    let verifier = choice & 0x08 != 0 ? Fuzzed.compatible : (stapling ? Fuzzed.revocation : Fuzzed.strict)
    let first = verifier.verify(served, host: host, at: Fuzzed.time, stapledOCSPResponse: staple)
    let second = verifier.verify(served, host: host, at: Fuzzed.time, stapledOCSPResponse: staple)
    switch (first, second) {
    case (.success(let chain), .success(let again)):
        precondition(chain.map(\.der) == again.map(\.der), "two verifications of one input disagree")
        precondition(!chain.isEmpty && chain[0].der == served[0].der, "the verified chain does not start at the served leaf")
        precondition(chain.count >= 1 && chain.count <= 101, "a verified chain of \(chain.count) certificates")
    case (.failure(let failure), .failure(let again)):
        precondition(failure == again, "two verifications of one input disagree: \(failure) and \(again)")
        precondition(failure.depth >= 0, "a negative depth")
    default:
        preconditionFailure("two verifications of one input disagree")
    }
    return 0
}

/// The verifiers, made once: loading the roots is not what is fuzzed.
private enum Fuzzed {
    static let time = Date(timeIntervalSince1970: 2_500_000_000)
    static let roots: TrustRoots = {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/certs/roots")
        return try! .only(pemFiles: ["root-a", "root-b", "root-c"].map { fixtures.appendingPathComponent("\($0).pem").path })
    }()
    static let strict = try! ChainVerifier(trustRoots: roots)
    static let compatible = try! ChainVerifier(trustRoots: roots, validationProfile: .compatible, maximumChainDepth: 3)
    static let revocation = try! ChainVerifier(trustRoots: roots, revocation: RevocationPolicy(stapling: .checkedWhenStapled))
}

/// Splits bytes into DER elements by their tag and length; an element whose length overruns the input keeps the rest.
private func derElements(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
    var elements: [[UInt8]] = []
    var index = bytes.startIndex
    while index < bytes.endIndex, elements.count < 300 {
        var length = 0
        var header = 2
        if index + 1 < bytes.endIndex {
            let first = Int(bytes[index + 1])
            if first < 0x80 {
                length = first
            } else {
                let count = first & 0x7F
                header += count
                for offset in 0..<min(count, 3) where index + 2 + offset < bytes.endIndex {
                    length = length << 8 | Int(bytes[index + 2 + offset])
                }
            }
        }
        let end = min(bytes.endIndex, index + header + length)
        elements.append(Array(bytes[index..<max(end, index + 1)]))
        index = max(end, index + 1)
    }
    return elements
}
