import NetworkCore

/// RFC 5280 4.1.2.2: every serial number is a positive integer of at most 20 octets.
struct SerialNumberRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        for certificate in chain.certificates {
            if let problem = certificate.serialNumberProblem {
                return .refusal(.invalidSerialNumber, by: .serialNumber, depth: certificate.depth, problem)
            }
        }
        return nil
    }
}
