internal import COpenSSL
import Foundation
import NetworkCore

/// What became of a server's request for a client certificate on one connection, as one value: what the client
/// answered and how the server took it. Error mapping reads it, as it reads a `TrustVerdict`.
struct ClientCertificateExchange: Sendable {

    /// What the client answered.
    enum Answer: Sendable, Equatable {
        case presented(ClientIdentity)
        case none
        /// The handler cancelled the challenge: the handshake was abandoned.
        case cancelled
        /// OpenSSL refused to use the identity the handler chose, for this reason: the server never saw it.
        case unusable(ClientIdentity, reason: String)
    }

    /// The names of the CAs the server said it accepts.
    let acceptableIssuers: [String]
    let answer: Answer
    /// The fatal alert the server sent afterwards, if any (RFC 8446 §6 numbering).
    var fatalAlert: Int32?

    /// The alerts by which a server refuses a client's certificate, or its absence: `handshake_failure` (TLS 1.2
    /// without a certificate), `bad_certificate`, `unsupported_certificate` (a wrong purpose), `certificate_revoked`,
    /// `certificate_expired`, `certificate_unknown`, `unknown_ca`, `access_denied`, `decrypt_error` (a signature
    /// the key did not make), `certificate_required` (TLS 1.3 without a certificate).
    private static let refusals: Set<Int32> = [40, 42, 43, 44, 45, 46, 48, 49, 51, 116]

    /// Whether an alert description is one by which a server refuses a client's certificate.
    static func isRefusal(_ description: Int32) -> Bool { refusals.contains(description) }

    /// Whether the exchange failed the connection: the handler gave up, or the server refused what it got.
    var isRefusal: Bool {
        switch answer {
        case .cancelled, .unusable: true
        case .presented, .none: fatalAlert.map(Self.refusals.contains) ?? false
        }
    }

    /// The `URLError` code of a refusal (ERR-23): none was presented and one was required, or the one presented
    /// was refused.
    var code: URLError.Code? {
        guard isRefusal else { return nil }
        switch answer {
        case .presented: return .clientCertificateRejected
        case .none, .cancelled: return .clientCertificateRequired
        // The client's own identity could not be used: its configuration is broken, the server refused nothing.
        case .unusable: return .secureConnectionFailed
        }
    }

    /// Why the connection failed, for the `TransportFailure`.
    var reason: String {
        let alert = fatalAlert.map { " (alert \(Self.alertName($0 & 0xff)), \($0 & 0xff))" } ?? ""
        switch answer {
        case .presented(let identity): return "the server refused the client certificate \(identity.subject)\(alert)"
        case .none: return "the server required a client certificate, and none was presented\(alert)"
        case .cancelled: return "the challenge handler cancelled the client-certificate challenge"
        case .unusable(let identity, let reason): return "OpenSSL could not present the client identity \(identity.subject): \(reason)"
        }
    }

    /// An alert's name; OpenSSL 3.0 has none for `certificate_required` (TLS 1.3).
    private static func alertName(_ description: Int32) -> String {
        description == 116 ? "certificate required" : String(cString: SSL_alert_desc_string_long(description))
    }
}
