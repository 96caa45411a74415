import Foundation

/// The TLS 1.2 session IDs a server issued, so that a ClientHello offering one of them is told apart from one carrying
/// the random session ID of TLS 1.3's compatibility mode. Bounded: a test server issues far fewer.
final class IssuedSessionIDs: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var ids: Set<[UInt8]> = []
    private static let maximum = 10_000

    func insert(_ id: [UInt8]) {
        lock.withLock { if ids.count < Self.maximum { ids.insert(id) } }
    }

    func contains(_ id: [UInt8]) -> Bool {
        lock.withLock { ids.contains(id) }
    }
}
