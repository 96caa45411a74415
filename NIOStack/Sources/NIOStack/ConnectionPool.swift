import NetworkCore
import NIOCore

/// Idle keep-alive connections, by where they lead, each with the trust check of its handshake, so that sequential
/// fetches to one server share a connection (HTTP-12) and a reused one is judged again before each request (TRUST-6);
/// and one HTTP/2 connection per place, which every fetch there shares while it is usable.
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

    private let idle = Locked<(isClosed: Bool, connections: [Key: [Connection]], shared: [Key: HTTP2Connection])>((false, [:], [:]))

    /// The HTTP/2 connection to the place, if one is usable.
    func shared(_ key: Key) -> HTTP2Connection? {
        idle.withLock { state in state.shared[key].flatMap { $0.isUsable ? $0 : nil } }
    }

    /// Makes a new HTTP/2 connection the one its place shares, unless a usable one is there already or the pool is
    /// closed: then the new one is retired, to close after its first stream.
    func share(_ connection: HTTP2Connection, for key: Key) {
        // The one that does not serve the place from now on: the new one, or the one it replaces.
        let retired = idle.withLock { state -> HTTP2Connection? in
            if state.isClosed || state.shared[key]?.isUsable == true { return connection }
            defer { state.shared[key] = connection }
            return state.shared[key]
        }
        retired?.retire()
    }

    /// Takes a connection out of sharing, if it is the one shared: its server is no longer trusted.
    func retire(_ connection: HTTP2Connection, for key: Key) {
        idle.withLock { state in
            if state.shared[key] === connection { state.shared[key] = nil }
        }
        connection.retire()
    }

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

    /// Closes every idle connection and every shared one, and every one put later.
    func closeAll() {
        let (all, shared) = idle.withLock { state -> ([Connection], [HTTP2Connection]) in
            state.isClosed = true
            defer { (state.connections, state.shared) = ([:], [:]) }
            return (state.connections.values.flatMap { $0 }, Array(state.shared.values))
        }
        for connection in all { connection.channel.close(promise: nil) }
        for connection in shared { connection.channel.close(promise: nil) }
    }
}
