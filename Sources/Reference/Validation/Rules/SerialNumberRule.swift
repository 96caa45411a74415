import NetworkCore

/// RFC 5280 4.1.2.2: every serial number a CA issued is a positive integer of at most 20 octets (the trust anchor's
/// own is not judged: nine roots of Debian's store have serial 0).
struct SerialNumberRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        for certificate in chain.issued {
            if let problem = certificate.serialNumberProblem {
                return .refusal(.invalidSerialNumber, by: .serialNumber, depth: certificate.depth, problem)
            }
        }
        return nil
    }
}
