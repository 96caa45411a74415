import NetworkCore

/// Served certificates already parsed and summarised, by their DER bytes: a server presents the same chain in every
/// handshake, and parsing and summarising it again costs more than a tenth of a handshake. Parsing is a function of
/// the bytes, so a hit is the same value; every handshake still validates the chain and asks the handler.
final class ParsedCertificateCache: Sendable {
    /// Entries kept; when full, the oldest goes (a stack talks to few servers, a hostile one cannot grow it).
    static let capacity = 64

    private let entries = Locked<(byDER: [[UInt8]: ParsedCertificate], order: [[UInt8]])>(([:], []))

    /// How many certificates are cached.
    var count: Int { entries.withLock { $0.order.count } }

    /// The parsed certificate of these bytes, parsed now if it is not cached.
    func parsed(_ der: [UInt8]) throws -> ParsedCertificate {
        if let hit = entries.withLock({ $0.byDER[der] }) { return hit }
        let parsed = try ParsedCertificate(der: der)
        entries.withLock { state in
            guard state.byDER.updateValue(parsed, forKey: der) == nil else { return }
            state.order.append(der)
            if state.order.count > Self.capacity { state.byDER[state.order.removeFirst()] = nil }
        }
        return parsed
    }
}
