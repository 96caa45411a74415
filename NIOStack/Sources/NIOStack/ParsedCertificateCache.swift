import NetworkCore

/// Served certificates already parsed and summarised, by their DER bytes: a server presents the same chain in every
/// handshake, and parsing and summarising it again costs more than a tenth of a handshake. Parsing is a function of
/// the bytes, so a hit is the same value; every handshake still validates the chain and asks the handler.
final class ParsedCertificateCache: Sendable {
    /// Entries kept; when full, the oldest goes (a stack talks to few servers, a hostile one cannot grow it).
    static let capacity = 64

    private let entries = BoundedCache<[UInt8], ParsedCertificate>(capacity: capacity)

    /// How many certificates are cached.
    var count: Int { entries.count }

    /// The parsed certificate of these bytes, parsed now if it is not cached.
    func parsed(_ der: [UInt8]) throws -> ParsedCertificate {
        if let hit = entries[der] { return hit }
        let parsed = try ParsedCertificate(der: der)
        entries.keep(parsed, for: der)
        return parsed
    }
}
