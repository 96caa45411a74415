import Foundation

/// Why a server was refused by an ``AuthenticationChallengeHandler``, with the evidence to fix it.
public struct ServerTrustFailure: Error, Sendable, CustomStringConvertible {

    /// The reason a program can compare against. New reasons may be added: switch with a `default`.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case noPolicyForHost, policyExpired, chainNotTrusted, hostnameMismatch, noPinMatched, pinNotComputable
            case configurationInvalid, refused
        }
        private let base: Base

        /// Standard validation's failure, for ``chainNotTrusted(_:)``.
        public let chainValidationFailure: ChainValidationFailure?

        private init(_ base: Base, chainValidationFailure: ChainValidationFailure? = nil) {
            self.base = base
            self.chainValidationFailure = chainValidationFailure
        }

        /// No policy covers the host, and unpinned hosts are not allowed.
        public static let noPolicyForHost = Reason(.noPolicyForHost)
        /// The host's policy has expired, and expired policies are not allowed.
        public static let policyExpired = Reason(.policyExpired)
        /// Standard validation failed; ``chainValidationFailure`` says how.
        public static func chainNotTrusted(_ failure: ChainValidationFailure) -> Reason {
            Reason(.chainNotTrusted, chainValidationFailure: failure)
        }
        /// The certificate is not for this host.
        public static let hostnameMismatch = Reason(.hostnameMismatch)
        /// No pin matched a certificate of the verified chain.
        public static let noPinMatched = Reason(.noPinMatched)
        /// A pin could not be computed from a certificate.
        public static let pinNotComputable = Reason(.pinNotComputable)
        /// The handler's configuration is invalid.
        public static let configurationInvalid = Reason(.configurationInvalid)
        /// A custom handler refused the server.
        public static let refused = Reason(.refused)

        /// Whether two reasons are the same kind of reason, whatever chain failure they carry: `chainNotTrusted`
        /// for any chain failure matches `chainNotTrusted` for any other.
        public func isSameKind(as other: Reason) -> Bool { base == other.base }

        /// The reason's stable name, with the chain failure's kind for `chainNotTrusted` (`chainNotTrusted(expired)`).
        public var description: String {
            guard let chainValidationFailure else { return base.rawValue }
            return "\(base.rawValue)(\(chainValidationFailure.kind.rawValue))"
        }
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

    /// One line: the host, the reason, the certificate that failed standard validation, the policy, the pins
    /// configured, the pins of the chain the stack judged (each with its certificate's subject, leaf first), and the
    /// handler's detail. Text that came from the server (subjects) or from configuration is escaped and bounded
    /// (`DisplayText`), so a hostile certificate cannot break the line or drive a terminal.
    public var description: String {
        var text = "server trust refused for host \(DisplayText.line(host)): \(reason)"
        if let chain = reason.chainValidationFailure {
            text += " (\(chain))"
            // Depth 0 is the leaf in every chain; deeper, the depth counts the verifier's own path, which need not be
            // the order of the certificates listed here (the served ones, when the chain did not verify).
            if chain.depth == 0, let leaf = seenCertificates.first {
                text += "; failed certificate: the leaf (\(DisplayText.line(leaf.subject)))"
            }
        }
        if let policy { text += "; policy: \(DisplayText.line(policy))" }
        if !configuredPins.isEmpty {
            text += "; configured pins: [\(configuredPins.map { DisplayText.line($0) }.joined(separator: ", "))]"
        }
        if !seenCertificates.isEmpty {
            let seen = seenCertificates.enumerated().map {
                "#\($0.offset) \($0.element.spkiSHA256) (\(DisplayText.line($0.element.subject)))"
            }
            text += "; chain pins: [\(seen.joined(separator: ", "))]"
        }
        if let detail { text += "; \(DisplayText.line(detail, limit: 2 * DisplayText.defaultLimit))" }
        return text
    }
}

extension ServerTrustFailure: LocalizedError {
    /// The ``description``, so that `localizedDescription` says what was refused and why.
    public var errorDescription: String? { description }
}
