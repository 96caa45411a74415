/// What the server's connection journal must show after a case: how many connections and requests it saw,
/// and whether any application byte reached it. `nil` fields are not checked.
public struct JournalExpectation: Sendable, Codable, Hashable {

    /// Connections the server accepted.
    public var connections: Int?
    /// Requests the server read, over all connections (the number of attempts that reached it).
    public var requests: Int?
    /// When `true`, no connection received a single byte of a request (a TLS refusal leaked nothing): over HTTP/2
    /// the connection preface and the client's `SETTINGS` are no request bytes (TRUST-3).
    public var noApplicationBytes: Bool?
    /// When set, every connection that carried a request spoke HTTP/2 (`true`) or HTTP/1.1 (`false`).
    public var http2: Bool?
    /// When `true`, no byte reached a connection after the server closed it while idle: the client never sent a
    /// request into a connection it could know was closed.
    public var nothingAfterServerClose: Bool?
    /// When set, how many connections resumed a TLS session: the server accepted the session the client offered.
    public var sessionsResumed: Int?
    /// When set, how many connections' ClientHellos offered a TLS session, whether the server accepted it or not.
    public var sessionsOffered: Int?

    /// Creates an expectation.
    public init(
        connections: Int? = nil, requests: Int? = nil, noApplicationBytes: Bool? = nil, http2: Bool? = nil,
        nothingAfterServerClose: Bool? = nil, sessionsResumed: Int? = nil, sessionsOffered: Int? = nil
    ) {
        self.connections = connections
        self.requests = requests
        self.noApplicationBytes = noApplicationBytes
        self.http2 = http2
        self.nothingAfterServerClose = nothingAfterServerClose
        self.sessionsResumed = sessionsResumed
        self.sessionsOffered = sessionsOffered
    }

    /// Nothing is checked.
    public static let any = JournalExpectation()

    /// Exactly `n` requests reached the server.
    public static func requests(_ n: Int) -> JournalExpectation { JournalExpectation(requests: n) }

    /// The differences from an actual journal, one line each.
    func mismatches(against journal: [JournalEntry]) -> [String] {
        var lines: [String] = []
        if let connections, connections != journal.count {
            lines.append("journal: expected \(connections) connections, got \(journal.count)")
        }
        let requestCount = journal.reduce(0) { $0 + $1.requests }
        if let requests, requests != requestCount {
            lines.append("journal: expected \(requests) requests, got \(requestCount)")
        }
        let bytes = journal.reduce(0) { $0 + ($1.requestBytesReceived ?? $1.applicationBytesReceived) }
        if noApplicationBytes == true, bytes != 0 {
            lines.append("journal: expected no request byte at the server, got \(bytes)")
        }
        if let http2, let other = journal.first(where: { $0.requests > 0 && ($0.http2 ?? false) != http2 }) {
            lines.append("journal: expected every request over \(http2 ? "HTTP/2" : "HTTP/1.1"), connection \(other.index) was not")
        }
        if nothingAfterServerClose == true, let late = journal.first(where: { ($0.bytesAfterServerClose ?? 0) > 0 }) {
            lines.append(
                "journal: connection \(late.index) received \(late.bytesAfterServerClose ?? 0) bytes after the server had closed it")
        }
        let resumed = journal.filter { $0.sessionReused == true }.count
        if let sessionsResumed, sessionsResumed != resumed {
            lines.append("journal: expected \(sessionsResumed) connections to resume a TLS session, got \(resumed)")
        }
        let offered = journal.filter { $0.sessionOffered == true }.map(\.index)
        if let sessionsOffered, sessionsOffered != offered.count {
            lines.append("journal: expected \(sessionsOffered) connections to offer a TLS session, got \(offered.count) \(offered)")
        }
        return lines
    }

    /// What is checked, one phrase each, for a report line.
    var summary: [String] {
        [
            connections.map { "\($0) connection(s)" }, requests.map { "\($0) request(s)" },
            noApplicationBytes == true ? "no request byte at the server" : nil,
            http2.map { "every request over \($0 ? "HTTP/2" : "HTTP/1.1")" },
            nothingAfterServerClose == true ? "nothing sent after the server's close" : nil,
            sessionsResumed.map { "\($0) resumed TLS session(s)" },
            sessionsOffered.map { "\($0) TLS session(s) offered" },
        ].compactMap { $0 }
    }
}
