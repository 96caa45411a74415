import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import NetworkCore
import TestTraits
import Testing

/// All pinning suites nest in this one, so `swift test --filter PinningTests` runs them.
@Suite("Pinning", .scaledTimeLimit(minutes: 1), .blocking)
enum PinningTests {}

/// Pins and files of the certificate catalogue.
enum Catalogue {
    static func pin(_ scenario: String, _ role: String) -> String { Fixtures.pin(scenario, role: role) }
    static func leaf(_ scenario: String) -> String { pin(scenario, "leaf") }
    static func intermediate(_ scenario: String) -> String { pin(scenario, "intermediate-1") }
    static func root(_ scenario: String) -> String { pin(scenario, "root") }

    /// The spare key of `backup-key`, in no chain.
    static var backup: String { try! Fixtures.catalogue.backupPin() }

    /// A well-formed pin of no certificate.
    static let unrelated = "ABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890abcdefg="
}

/// A MockServer serving a scenario, reached under any host name (through `resolveOverrides`), and a stack.
struct PinHarness {
    let server: MockServer
    let stack: Network.URLSessionNetworkStack
    let host: String

    init(
        scenario: String = "valid-ec256",
        host: String = "localhost",
        roots: [String] = ["roots/root-a.pem"],
        sessionResumption: Bool = false,
        verificationTime: Date? = nil,
        httpVersions: MockServer.TLS.HTTPVersions = .http1Only,
        handler: (any AuthenticationChallengeHandler)?
    ) throws {
        server = try MockServer(
            tls: MockServer.TLS(identity: Fixtures.identity(scenario), sessionResumption: sessionResumption, httpVersions: httpVersions))
        self.host = host
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: roots.map(Fixtures.path))
        configuration.verificationTime = verificationTime
        if host != "localhost" { configuration.resolveOverrides = [.init(host: host, port: server.port, address: "127.0.0.1")] }
        stack = Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: DispatchQueue(label: "test.retry"))
    }

    /// Fetches `/` from the harness's host, the server answering 200 "ok" (closing the connection if asked).
    func fetch(closeConnection: Bool = false) -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)).with { $0.closeConnection = closeConnection })
        let url = URL(string: "https://\(host):\(server.port)/")!
        let request = URLRequest(url: url, timeoutInterval: 10)
        let resource = Network.URLSessionResource(
            baseRequestMaking: .init { handler in handler(.success(request)) }, errorDecoding: .dummy, interceptors: [])
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        stack.fetch(resource: resource) { recorder.record($0) }
        return recorder.next()!
    }

    /// Total application bytes the server received over all connections.
    var applicationBytes: Int { server.journal.reduce(0) { $0 + $1.applicationBytesReceived } }
}

extension Result where Failure == Network.URLSessionError {
    /// The trust handler's refusal, if the fetch failed because of one.
    var serverTrustFailure: ServerTrustFailure? {
        guard case .failure(.url(let error)) = self else { return nil }
        return error.serverTrustFailure
    }

    /// The `URLError` code of a transport failure.
    var urlErrorCode: URLError.Code? {
        guard case .failure(.url(let error)) = self else { return nil }
        return error.code
    }
}

/// A handler whose inner handler can be swapped while a stack uses it.
final class SwappableHandler: AuthenticationChallengeHandler {
    private let inner: Locked<any AuthenticationChallengeHandler>
    init(_ handler: any AuthenticationChallengeHandler) { inner = Locked(handler) }
    func swap(to handler: any AuthenticationChallengeHandler) { inner.withLock { $0 = handler } }
    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        inner.withLock { $0 }.handle(challenge)
    }
    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        inner.withLock { $0 }.handle(challenge)
    }
}

/// Shorthands for evaluators.
func evaluator(
    _ policies: [ServerTrustEvaluator.PinningPolicy],
    allowNotPinned: Bool = false, allowExpired: Bool = false,
    reporter: ServerTrustEvaluator.FailureReporter? = nil
) throws -> ServerTrustEvaluator {
    try ServerTrustEvaluator(
        configuration: .init(pinningPolicies: policies, allowNotPinnedDomains: allowNotPinned, allowExpiredDomainPolicies: allowExpired),
        failureReporter: reporter)
}

func policy(
    _ domain: String = "localhost", subdomains: Bool = false, expires: Date = .distantFuture, pins: Set<String>
) throws -> ServerTrustEvaluator.PinningPolicy {
    try .init(domainName: domain, includeSubdomains: subdomains, expirationDate: expires, pinnedHashes: pins, enforceBackupPin: false)
}

/// A fabricated challenge for pure tests: certificates are summaries with the given pins (leaf first).
func challenge(
    host: String, chain: [String], served: [String]? = nil,
    standard: Result<Void, ChainValidationFailure> = .success(()), time: Date = Date(timeIntervalSince1970: 2_000_000_000)
) -> ServerTrustChallenge {
    let certificates = { (pins: [String]) in
        pins.enumerated().map {
            ServerCertificate(der: Data([UInt8($0.offset)]), spkiSHA256: $0.element, subject: "CN=cert\($0.offset)", issuer: "")
        }
    }
    return ServerTrustChallenge(
        host: host, port: 443, servedChain: certificates(served ?? chain), verifiedChain: certificates(chain),
        standardValidation: standard, verificationTime: time, isReusedConnection: false)
}
