import Foundation
import NetworkCore
import X509

/// Paths standard validation accepted, by the served chain and the host: a server presents the same chain in every
/// handshake, and building and checking its path again (two signatures and RFC 5280's policy, in Swift) costs a tenth
/// of the client's handshake. What a path's verdict depends on is the served bytes, the host, the stack's roots and
/// profile (one cache per validator) and the time, which only moves the verdict across a certificate's validity
/// dates: a hit is used only strictly inside every certificate's validity, where the dates cannot change it. Only
/// acceptances are kept; every handshake still asks the handler, with the same evidence.
final class VerifiedPathCache: Sendable {
    /// Entries kept; when full, the oldest goes (a stack talks to few servers, a hostile one cannot grow it).
    static let capacity = 64

    private struct Key: Hashable {
        let served: [Certificate]
        let host: String
    }

    private struct Entry {
        let path: [Certificate]
        /// The latest notBefore and the earliest notAfter of the path.
        let validity: (from: Date, until: Date)
    }

    private let entries = BoundedCache<Key, Entry>(capacity: capacity)

    /// How many paths are cached.
    var count: Int { entries.count }

    /// The path accepted earlier for this chain and host, if `time` is strictly inside its validity.
    func path(served: [Certificate], host: String, at time: Date) -> [Certificate]? {
        guard let entry = entries[Key(served: served, host: host)],
            entry.validity.from < time, time < entry.validity.until
        else { return nil }
        return entry.path
    }

    /// Keeps a path standard validation accepted for this chain and host.
    func keep(_ path: [Certificate], served: [Certificate], host: String) {
        guard let from = path.map(\.notValidBefore).max(), let until = path.map(\.notValidAfter).min() else { return }
        entries.keep(Entry(path: path, validity: (from, until)), for: Key(served: served, host: host))
    }
}
