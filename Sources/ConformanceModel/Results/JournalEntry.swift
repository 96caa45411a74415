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
    /// The bytes of requests received: over HTTP/1.1 every byte of HTTP, over HTTP/2 the frames that carry requests
    /// (`HEADERS`, `CONTINUATION`, `DATA`), not the connection preface or `SETTINGS` (TRUST-3). Absent from
    /// reports of schema versions before 3.2.0, where ``applicationBytesReceived`` stands for it.
    public var requestBytesReceived: Int?
    /// `client`, `server`, or nil while open.
    public var closedBy: String?
    /// `fin`, `reset`, or nil while open.
    public var closeKind: String?
    /// The fault that fired, if any.
    public var fault: String?
    /// `true` when the client resumed a TLS session on this connection; absent otherwise, so that reports
    /// of plain and unresumed connections stay as they were.
    public var sessionReused: Bool?
    /// `true` when the client's ClientHello offered a TLS session (a TLS 1.3 pre-shared key or a TLS 1.2 ticket),
    /// accepted or not; absent otherwise.
    public var sessionOffered: Bool?
    /// `true` when ALPN selected HTTP/2 on this connection; absent otherwise.
    public var http2: Bool?
    /// The error code of the `GOAWAY` the client sent on an HTTP/2 connection (`PROTOCOL_ERROR`), if it sent one.
    public var http2ClientGoAway: String?
    /// The streams the client reset on an HTTP/2 connection, `<stream> <code>` each; absent when it reset none.
    public var http2ClientResets: [String]?
    /// When the server asked for a client certificate: the subjects of the certificates the client presented, leaf
    /// first (empty when it presented none); absent when the server did not ask.
    public var clientCertificate: [String]?
    /// The malformation of the last malformed response the server began to send on this connection
    /// (`http09Reply`, `garbageThenClose(5 bytes)`), if any.
    public var malformation: String?
    /// The bytes the client sent into the connection after the server closed it while idle; absent when none.
    public var bytesAfterServerClose: Int?

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
        requestBytesReceived = record.applicationProtocol == "h2" ? record.http2.requestFrameBytes : record.applicationBytesReceived
        closedBy = record.closedBy.map { $0 == .client ? "client" : "server" }
        closeKind = record.closeKind.map { $0 == .fin ? "fin" : "reset" }
        fault = record.fault.map { "\($0)" }
        sessionReused = record.sessionReused ? true : nil
        sessionOffered = record.sessionOffered ? true : nil
        http2 = record.applicationProtocol == "h2" ? true : nil
        http2ClientGoAway = record.http2.goAway.map { "\($0.code)" }
        clientCertificate = record.clientCertificate?.presentedSubjects
        malformation = record.malformation.map { "\($0)" }
        bytesAfterServerClose = record.bytesAfterClose > 0 ? record.bytesAfterClose : nil
        http2ClientResets = record.http2.resets.isEmpty ? nil : record.http2.resets.map { "\($0.streamID) \($0.code)" }
    }
}
