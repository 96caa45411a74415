import Foundation

/// A challenge handler that presents a client identity, chosen per host, and leaves server trust to another
/// handler (a ``AuthenticationChallengeHandler`` such as a pinning evaluator) or to standard validation.
///
/// ```swift
/// let identity = try ClientIdentity(pemCertificateFile: "client.pem", privateKeyFile: "client.key")
/// let handler = ClientCertificateHandler(presenting: identity, serverTrust: evaluator)
/// ```
public struct ClientCertificateHandler: AuthenticationChallengeHandler {

    private let identities: [String: ClientIdentity]
    private let fallback: ClientIdentity?
    private let serverTrust: (any AuthenticationChallengeHandler)?

    /// Presents `identity` to every server that asks.
    ///
    /// - Parameters:
    ///   - identity: The identity to present.
    ///   - serverTrust: Decides about servers; `nil` applies standard validation.
    public init(presenting identity: ClientIdentity, serverTrust: (any AuthenticationChallengeHandler)? = nil) {
        self.identities = [:]
        self.fallback = identity
        self.serverTrust = serverTrust
    }

    /// Presents the identity given for the host asked about (host names compared without letter case and
    /// without a trailing dot), else `otherHosts`, else none. When two keys name the same host, the one that sorts
    /// first wins, whatever order the dictionary iterates in.
    ///
    /// - Parameters:
    ///   - identities: An identity per host name.
    ///   - otherHosts: The identity for any other host; `nil` presents none.
    ///   - serverTrust: Decides about servers; `nil` applies standard validation.
    public init(
        presenting identities: [String: ClientIdentity], otherHosts: ClientIdentity? = nil,
        serverTrust: (any AuthenticationChallengeHandler)? = nil
    ) {
        self.identities = Dictionary(
            identities.sorted { $0.key < $1.key }.map { (Self.normalised($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.fallback = otherHosts
        self.serverTrust = serverTrust
    }

    /// Leaves server trust to the handler given, or to standard validation.
    public func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        serverTrust?.handle(challenge) ?? .performDefaultHandling
    }

    /// Presents the host's identity, or goes on without one when there is none for the host.
    public func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        guard let identity = identities[Self.normalised(challenge.host)] ?? fallback else { return .performDefaultHandling }
        return .useCredential(identity)
    }

    private static func normalised(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
