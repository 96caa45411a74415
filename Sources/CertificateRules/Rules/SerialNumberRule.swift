import NetworkCore

/// RFC 5280 4.1.2.2: every serial number a CA issued is a positive integer of at most 20 octets (the trust anchor's
/// own is not judged: nine roots of Debian's store have serial 0).
struct SerialNumberRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.issued {
            if let problem = Self.problem(certificate.serialNumber) {
                return .refusal(.invalidSerialNumber, by: .serialNumber, depth: certificate.depth, problem)
            }
        }
        return nil
    }

    /// Why DER content octets of a serial number break the rule, or `nil`.
    static func problem(_ octets: [UInt8]) -> String? {
        guard let first = octets.first else { return "unreadable serial number" }
        if first & 0x80 != 0 { return "serial number is negative" }
        if octets.allSatisfy({ $0 == 0 }) { return "serial number is zero" }
        return octets.count > 20 ? "serial number is \(octets.count) octets (at most 20)" : nil
    }
}
