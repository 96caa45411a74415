#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An in-process HTTP/1.1 server, plain or over TLS, that answers from a script and records what clients did.
///
/// Tests use it in three steps: **script** the responses, **run** the client, **verify** the recorded requests
/// and the connection journal.
///
/// ```swift
/// // Script
/// let server = try MockServer(tls: .init(identity: .init(chainFile: "served.pem", keyFile: "leaf.key")))
/// defer { server.shutdown() }
/// server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "0"]))
/// server.enqueue(MockResponse(fault: .resetAtAccept))              // the next connection is reset
/// server.enqueue(MockResponse(headers: ["Content-Type": "application/json"], body: Data("{}".utf8)))
///
/// // Run
/// let result = try await client.get(server.url("/items"))
///
/// // Verify
/// let first = try server.takeRequest(timeout: .seconds(5))
/// #expect(first.path == "/items")
/// #expect(server.journal.count == 3)                             // three connections: 503, reset, 200
/// #expect(server.shutdown().isClean)                             // every response used, every request taken
/// ```
///
/// Responses come from the queue (``enqueue(_:)``) in order, one per request, or from ``dispatcher`` when it
/// is set. An empty queue answers `404` at once rather than blocking, so a missing script line fails fast.
/// Faults that fire before a request exists (at accept, after the ClientHello, before reading a request) are
/// taken from the **next** scripted response; see ``MockFault``.
///
/// Malformed requests get a `400` and bodies over ``maximumRequestBodySize`` a `413`, both recorded with a
/// ``RecordedRequest/failure``, so no client can crash or bloat the test process. When the process runs out
/// of file descriptors, connections the server cannot take are closed at once (it keeps one descriptor in
/// reserve for that), and it serves again once descriptors free up.
///
/// The server listens from `init` until ``shutdown()`` (also run by `deinit`), on a kernel-assigned port.
/// Each connection is served on its own thread; the server ignores `SIGPIPE` process-wide, because OpenSSL
/// writes to sockets with `write(2)` and a client that hangs up would otherwise kill the test process.
///
/// - Warning: Every method is thread-safe. Shutdown is bounded (about two seconds at worst, when a
///   dispatcher closure hangs) and never waits for clients; when it returns, the port is free.
public final class MockServer: Sendable {
    /// The TCP port the server listens on.
    public let port: Int
    /// The address the server is bound to (`127.0.0.1` unless `bindAddress` said otherwise).
    public let bindAddress: String
    /// Whether the server speaks TLS.
    public let isTLS: Bool
    /// The largest request body the server reads, in bytes; a larger one is answered `413` and not buffered.
    public let maximumRequestBodySize: Int

    /// The default of ``maximumRequestBodySize``: 16 MiB, far above what a test uploads, far below what would
    /// strain the machine when a client (or a bug) streams without end.
    public static let defaultMaximumRequestBodySize = 16 * 1024 * 1024

    private let core: ServerCore
    private let finalReport = FinalReport()
    /// Signalled by the accept thread once it closed the listening socket.
    private let listenerClosed = DispatchSemaphore(value: 0)

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - tls: The TLS configuration, or `nil` for plain HTTP.
    ///   - bindAddress: An IPv4 or IPv6 literal to listen on (default `127.0.0.1`; `"::1"` for IPv6 loopback).
    ///   - port: The port, or 0 (default) for a kernel-assigned one.
    ///   - recordsRequests: Keep every request for ``takeRequest(timeout:)`` (default). Turn it off for load
    ///     tests, where nobody takes them and they would pile up; the journal still counts them.
    ///   - maximumRequestBodySize: The largest request body read, in bytes (default
    ///     ``defaultMaximumRequestBodySize``). A request that declares a larger `Content-Length`, or whose chunks
    ///     add up to more, is answered `413 Content Too Large` with `Connection: close` as soon as that is known,
    ///     without reading the rest, and recorded with a ``RecordedRequest/failure``.
    /// - Throws: ``MockServerError`` with code `bindFailed`, `invalidCertificate`, `invalidKey` or `tlsSetupFailed`.
    public convenience init(
        tls: TLS? = nil, bindAddress: String = "127.0.0.1", port: Int = 0, recordsRequests: Bool = true,
        maximumRequestBodySize: Int = MockServer.defaultMaximumRequestBodySize
    ) throws {
        try self.init(
            tls: tls, bindAddress: bindAddress, port: port, recordsRequests: recordsRequests,
            maximumRequestBodySize: maximumRequestBodySize, reservesSpareDescriptor: true)
    }

    /// The initializer behind the public one; without a spare descriptor, tests reach the accept loop's back-off.
    init(
        tls: TLS?, bindAddress: String, port: Int, recordsRequests: Bool, maximumRequestBodySize: Int,
        reservesSpareDescriptor: Bool
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        let context = try tls.map { try TLSContext($0) }
        let listener = try Socket.listen(address: bindAddress, port: port)
        self.port = listener.port
        self.bindAddress = bindAddress
        self.isTLS = tls != nil
        self.maximumRequestBodySize = max(0, maximumRequestBodySize)
        let core = ServerCore(tls: context, recordsRequests: recordsRequests, maximumRequestBodySize: max(0, maximumRequestBodySize))
        self.core = core
        core.threadStarted()
        let loop = AcceptLoop(
            core: core, listener: listener.fd, reservedSpare: reservesSpareDescriptor ? Socket.openSpare() : -1,
            listenerClosed: listenerClosed)
        let thread = Thread { loop.run() }
        thread.name = "MockServer.accept:\(listener.port)"
        thread.start()
    }

    deinit {
        shutdown()
    }

    /// The URL of `path` on this server: `https://localhost:PORT/path` with TLS (so the certificate's
    /// `localhost` name matches), `http://127.0.0.1:PORT/path` without.
    public func url(_ path: String = "/") -> URL {
        let normalized = path.hasPrefix("/") ? path : "/" + path
        let host: String
        if isTLS {
            host = "localhost"
        } else {
            host = bindAddress.contains(":") ? "[\(bindAddress)]" : bindAddress
        }
        return URL(string: "\(isTLS ? "https" : "http")://\(host):\(port)\(normalized)")!
    }

    // MARK: Script

    /// Adds a response to the end of the queue.
    public func enqueue(_ response: MockResponse) {
        core.enqueue(response)
    }

    /// Decides responses in place of the queue when set; `nil` (the default) uses the queue.
    public var dispatcher: MockDispatcher? {
        get { core.dispatcher }
        set { core.dispatcher = newValue }
    }

    // MARK: Verify

    /// Removes and returns the oldest recorded request, waiting for one until `timeout`.
    ///
    /// - Throws: ``MockServerError`` `.timeout` when no request arrived in time, `.shutDown` when the server
    ///   was shut down and no request is left.
    public func takeRequest(timeout: Duration = .seconds(5)) throws -> RecordedRequest {
        guard let result = core.takeRequest(until: Date(timeIntervalSinceNow: timeout.seconds)) else {
            throw MockServerError(code: .timeout, message: "no request within \(timeout)")
        }
        return try result.get()
    }

    /// Waits until at least `count` connections have been accepted.
    ///
    /// - Throws: ``MockServerError`` `.timeout` with the number seen so far.
    public func waitForConnections(_ count: Int, timeout: Duration = .seconds(5)) throws {
        guard core.waitForConnections(count, until: Date(timeIntervalSinceNow: timeout.seconds)) else {
            throw MockServerError(code: .timeout, message: "\(core.journalSnapshot.count) of \(count) connections within \(timeout)")
        }
    }

    /// Waits until connection `index` (0-based, in accept order) is closed, by either side, and returns its
    /// final record: closing can happen after the client already saw its result.
    ///
    /// - Throws: ``MockServerError`` `.timeout` if it is still open (or not accepted) at the deadline.
    @discardableResult
    public func waitForClose(ofConnection index: Int, timeout: Duration = .seconds(5)) throws -> ConnectionRecord {
        guard let record = core.waitForClose(of: index, until: Date(timeIntervalSinceNow: timeout.seconds)) else {
            throw MockServerError(code: .timeout, message: "connection \(index) not closed within \(timeout)")
        }
        return record
    }

    /// A snapshot of every accepted connection, in accept order.
    public var journal: [ConnectionRecord] { core.journalSnapshot }

    // MARK: Stop

    /// Stops listening, closes every connection, and reports what the script left unused.
    ///
    /// Idempotent: later calls return the first report. Bounded: it does not wait for clients.
    @discardableResult
    public func shutdown() -> ShutdownReport {
        finalReport.once {
            let report = core.shutdown(budget: .seconds(2))
            // The accept thread closes its own socket once it sees the flag (closing here could race a reused
            // number); waiting for it, past the budget if a loaded machine is slow to run it, frees the port before
            // shutdown returns, so that a server may listen on it again at once.
            _ = listenerClosed.wait(timeout: .now() + 30)
            return report
        }
    }
}

/// The first shutdown report, kept so that `shutdown()` is idempotent.
private final class FinalReport: @unchecked Sendable {
    private let lock = NSLock()
    private var report: ShutdownReport?

    func once(_ make: () -> ShutdownReport) -> ShutdownReport {
        lock.lock()
        defer { lock.unlock() }
        if let report { return report }
        let made = make()
        report = made
        return made
    }
}
