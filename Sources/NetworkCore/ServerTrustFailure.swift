/// Why a server was refused by an ``AuthenticationChallengeHandler``, with the evidence to fix it.
public struct ServerTrustFailure: Error, Sendable, CustomStringConvertible {

    /// The reason a program can switch on.
    public enum Reason: Sendable, Equatable {
        /// No policy covers the host, and unpinned hosts are not allowed.
        case noPolicyForHost
        /// The host's policy has expired, and expired policies are not allowed.
        case policyExpired
        /// Standard validation failed.
        case chainNotTrusted(ChainValidationFailure)
        /// The certificate is not for this host.
        case hostnameMismatch
        /// No pin matched a certificate of the verified chain.
        case noPinMatched
        /// A pin could not be computed from a certificate.
        case pinNotComputable
        /// The handler's configuration is invalid.
        case configurationInvalid
        /// A custom handler refused the server.
        case refused
    }

    /// The reason.
    public let reason: Reason

    /// The host that was refused.
    public let host: String

    /// The policy that applied, described, if any.
    public let policy: String?

    /// The pins the policy accepts.
    public let configuredPins: [String]

    /// The certificates of the verified chain (or the served chain when none was built), leaf first.
    public let seenCertificates: [ServerCertificate]

    /// Free text from the handler.
    public let detail: String?

    /// Creates a failure.
    public init(
        reason: Reason,
        host: String,
        policy: String? = nil,
        configuredPins: [String] = [],
        seenCertificates: [ServerCertificate] = [],
        detail: String? = nil
    ) {
        self.reason = reason
        self.host = host
        self.policy = policy
        self.configuredPins = configuredPins
        self.seenCertificates = seenCertificates
        self.detail = detail
    }

    public var description: String {
        var text = "server trust refused for host \(host): \(reason)"
        if let policy { text += "; policy: \(policy)" }
        if !configuredPins.isEmpty { text += "; configured pins: [\(configuredPins.joined(separator: ", "))]" }
        if !seenCertificates.isEmpty {
            let seen = seenCertificates.enumerated().map { "#\($0.offset) \($0.element.spkiSHA256) (\($0.element.subject))" }
            text += "; chain pins: [\(seen.joined(separator: ", "))]"
        }
        if let detail { text += "; \(detail)" }
        return text
    }
}
