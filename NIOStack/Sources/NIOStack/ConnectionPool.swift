import NetworkCore
import NIOCore

/// Idle keep-alive connections, by where they lead, each with the trust check of its handshake, so that sequential
/// fetches to one server share a connection (HTTP-12) and a reused one is judged again before each request (TRUST-6).
final class ConnectionPool: Sendable {

    /// Where a connection leads: only a request for the same scheme, host, port and address may take it.
    struct Key: Hashable, Sendable {
        let isTLS: Bool
        let host: String
        let port: Int
        let address: String
    }

    /// An idle connection, and the check that judged its server (`nil` for plain HTTP).
    struct Connection: Sendable {
        let channel: any Channel
        let trust: HandshakeTrust?
    }

    /// Idle connections kept per key; more are closed.
    static let maximumIdlePerKey = 4

    private let idle = Locked<(isClosed: Bool, connections: [Key: [Connection]])>((false, [:]))

    /// The most recently idle connection still open, if any.
    func take(_ key: Key) -> Connection? {
        idle.withLock { state in
            var connections = state.connections[key] ?? []
            defer { state.connections[key] = connections.isEmpty ? nil : connections }
            while let connection = connections.popLast() {
                if connection.channel.isActive { return connection }
            }
            return nil
        }
    }

    /// Keeps a connection whose response ended and that the server keeps open; closes it when the pool is full or closed.
    func put(_ connection: Connection, for key: Key) {
        let kept = idle.withLock { state -> Bool in
            guard !state.isClosed, (state.connections[key]?.count ?? 0) < Self.maximumIdlePerKey else { return false }
            state.connections[key, default: []].append(connection)
            return true
        }
        if !kept { connection.channel.close(promise: nil) }
    }

    /// Closes every idle connection, and every one put later.
    func closeAll() {
        let all = idle.withLock { state -> [Connection] in
            state.isClosed = true
            defer { state.connections = [:] }
            return state.connections.values.flatMap { $0 }
        }
        for connection in all { connection.channel.close(promise: nil) }
    }
}
