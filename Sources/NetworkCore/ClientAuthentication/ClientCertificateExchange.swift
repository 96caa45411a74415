import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What became of a server's request for a client certificate on one connection, as one value: what the client
/// answered and how the server took it. Both stacks of this package record one when a server asks, map a failed
/// connection's error from it (ERR-23), and ask it whether a reused connection may carry the next request (TRUST-12).
public struct ClientCertificateExchange: Sendable, Equatable {

    /// What the client answered.
    public enum Answer: Sendable, Equatable {
        /// The handler's identity was presented.
        case presented(ClientIdentity)
        /// No certificate was presented.
        case none
        /// The handler cancelled the challenge: the handshake was abandoned.
        case cancelled
        /// The client's own TLS layer refused to use the identity the handler chose, for this reason: the server
        /// never saw it.
        case unusable(ClientIdentity, reason: String)

        /// The answer of a handler's disposition; `present` installs an identity on the connection and says why it
        /// could not, or `nil` once it did.
        public static func of(
            _ disposition: ClientCertificateChallenge.Disposition, presenting present: (ClientIdentity) -> String?
        ) -> Answer {
            switch disposition {
            case .performDefaultHandling: .none
            case .cancelAuthenticationChallenge: .cancelled
            case .useCredential(let identity): present(identity).map { .unusable(identity, reason: $0) } ?? .presented(identity)
            }
        }
    }

    /// Whether a connection (or a TLS session) made with this exchange may carry a request now.
    public enum Reuse: Sendable, Equatable {
        /// The handler answers as the connection did.
        case sameAnswer
        /// The handler would now present another identity, or none where the connection presented one (or one where
        /// it presented none): the request goes on a new connection.
        case anotherAnswer
        /// The handler cancels the challenge now: the request fails with `clientCertificateRequired`.
        case cancelled
    }

    /// The names of the CAs the server said it accepts (empty when the TLS library does not say).
    public let acceptableIssuers: [String]
    /// What the client answered.
    public let answer: Answer
    /// The fatal alert the server sent afterwards, if any (RFC 8446 §6 numbering).
    public var fatalAlert: Int32?

    /// Records an answer to a server's request.
    public init(acceptableIssuers: [String], answer: Answer, fatalAlert: Int32? = nil) {
        self.acceptableIssuers = acceptableIssuers
        self.answer = answer
        self.fatalAlert = fatalAlert
    }

    /// The alerts by which a server refuses a client's certificate, or its absence: `handshake_failure` (TLS 1.2
    /// without a certificate), `bad_certificate`, `unsupported_certificate` (a wrong purpose), `certificate_revoked`,
    /// `certificate_expired`, `certificate_unknown`, `unknown_ca`, `access_denied`, `decrypt_error` (a signature
    /// the key did not make), `certificate_required` (TLS 1.3 without a certificate).
    private static let refusals: Set<Int32> = [40, 42, 43, 44, 45, 46, 48, 49, 51, 116]

    /// Whether an alert description is one by which a server refuses a client's certificate.
    public static func isRefusal(_ description: Int32) -> Bool { refusals.contains(description) }

    /// Whether the exchange failed the connection: the handler gave up, the client could not use the identity, or
    /// the server refused what it got.
    public var isRefusal: Bool {
        switch answer {
        case .cancelled, .unusable: true
        case .presented, .none: fatalAlert.map(Self.refusals.contains) ?? false
        }
    }

    /// The `URLError` code of a refusal (ERR-23): none was presented and one was required, or the one presented
    /// was refused; `nil` when the exchange failed nothing.
    public var code: URLError.Code? {
        guard isRefusal else { return nil }
        switch answer {
        case .presented: return .clientCertificateRejected
        case .none, .cancelled: return .clientCertificateRequired
        // The client's own identity could not be used: its configuration is broken, the server refused nothing.
        case .unusable: return .secureConnectionFailed
        }
    }

    /// Why the connection failed, for the `TransportFailure`.
    public func reason(library: String) -> String {
        let alert = fatalAlert.map { " (alert \(TLSAlert.name($0 & 0xff)), \($0 & 0xff))" } ?? ""
        switch answer {
        case .presented(let identity): return "the server refused the client certificate \(identity.subject)\(alert)"
        case .none: return "the server required a client certificate, and none was presented\(alert)"
        case .cancelled: return "the challenge handler cancelled the client-certificate challenge"
        case .unusable(let identity, let reason): return "\(library) could not present the client identity \(identity.subject): \(reason)"
        }
    }

    /// Whether a connection made with this exchange may carry a request now: `handler` (`nil`: none, which presents
    /// nothing) is asked again, with ``ClientCertificateChallenge/isReusedConnection`` set, and must answer as the
    /// connection did (TRUST-12).
    public func reuse(by handler: (any AuthenticationChallengeHandler)?, host: String, port: Int) -> Reuse {
        let challenge = ClientCertificateChallenge(
            host: host, port: port, acceptableIssuers: acceptableIssuers, isReusedConnection: true)
        let now: Answer
        switch handler?.handle(challenge) ?? .performDefaultHandling {
        case .cancelAuthenticationChallenge: return .cancelled
        case .performDefaultHandling: now = .none
        case .useCredential(let identity): now = .presented(identity)
        }
        return now == answer ? .sameAnswer : .anotherAnswer
    }
}
