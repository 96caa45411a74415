import MockServer

/// One connection of the server's journal, as reports show it.
public struct JournalEntry: Sendable, Codable, Hashable {
    /// Accept order, from 0.
    public var index: Int
    /// `not-tls`, `pending`, `succeeded` or `failed: <OpenSSL reason>`.
    public var handshake: String
    /// Requests read on the connection.
    public var requests: Int
    /// Bytes of HTTP received (decrypted under TLS).
    public var applicationBytesReceived: Int
    /// `client`, `server`, or nil while open.
    public var closedBy: String?
    /// `fin`, `reset`, or nil while open.
    public var closeKind: String?
    /// The fault that fired, if any.
    public var fault: String?
    /// `true` when the client resumed a TLS session on this connection; absent otherwise, so that reports
    /// of plain and unresumed connections stay as they were.
    public var sessionReused: Bool?

    init(_ record: ConnectionRecord) {
        index = record.index
        switch record.handshake {
        case .notTLS: handshake = "not-tls"
        case .pending: handshake = "pending"
        case .succeeded: handshake = "succeeded"
        default: handshake = "failed: \(record.handshake.failureReason ?? "")"
        }
        requests = record.requestCount
        applicationBytesReceived = record.applicationBytesReceived
        closedBy = record.closedBy.map { $0 == .client ? "client" : "server" }
        closeKind = record.closeKind.map { $0 == .fin ? "fin" : "reset" }
        fault = record.fault.map { "\($0)" }
        sessionReused = record.sessionReused ? true : nil
    }
}
