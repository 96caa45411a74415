import Foundation

/// What a TLS client knows about a server when it must decide whether to trust it.
public struct ServerTrustChallenge: Sendable {

    /// How a handler answers a challenge.
    public enum Disposition: Sendable {
        /// Trust the server, whatever standard validation said.
        case useCredential
        /// Apply standard validation: trust the server if and only if ``ServerTrustChallenge/standardValidation`` succeeded.
        case performDefaultHandling
        /// Refuse the server, for the given reason.
        case cancelAuthenticationChallenge(ServerTrustFailure)
    }

    /// The host the client connects to, from the request URL (lowercased, IPv6 without brackets).
    public let host: String

    /// The port the client connects to.
    public let port: Int

    /// The certificates the server sent, in the order it sent them (leaf first).
    public let servedChain: [ServerCertificate]

    /// The path the verifier built from the leaf to a trust anchor, anchor included even if the server did
    /// not send it. Empty when no path could be built.
    public let verifiedChain: [ServerCertificate]

    /// The outcome of standard validation: chain to a trusted root, validity dates at
    /// ``verificationTime``, host name, purpose.
    public let standardValidation: Result<Void, ChainValidationFailure>

    /// The time certificates were checked against.
    public let verificationTime: Date

    /// Whether this check is the re-check before a request on a connection that was already verified. A connection
    /// that resumed a TLS session is a new connection: `false`, with the evidence of the session's full handshake.
    public let isReusedConnection: Bool

    /// The validation profile ``standardValidation`` applied: a refusal by one of its rules is a
    /// ``ChainValidationFailure`` whose ``ChainValidationFailure/rule`` names the rule.
    public let validationProfile: ValidationProfile

    /// Creates a challenge.
    public init(
        host: String,
        port: Int,
        servedChain: [ServerCertificate],
        verifiedChain: [ServerCertificate],
        standardValidation: Result<Void, ChainValidationFailure>,
        verificationTime: Date,
        isReusedConnection: Bool,
        validationProfile: ValidationProfile = .strict
    ) {
        self.host = host
        self.port = port
        self.servedChain = servedChain
        self.verifiedChain = verifiedChain
        self.standardValidation = standardValidation
        self.verificationTime = verificationTime
        self.isReusedConnection = isReusedConnection
        self.validationProfile = validationProfile
    }
}
