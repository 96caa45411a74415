/// How a ``TrustPolicy`` decides about a server.
public enum ValidationType: Int, Sendable, Hashable, CaseIterable {
    /// No validation at all: **any** server is trusted. For tests and diagnostics only.
    case disabled = 0
    /// Standard X.509 validation: chain to a trusted root, dates, host name (unless
    /// ``ValidationSettings/sslValidateHostName`` is off), purpose.
    case standard
    /// A ``ValidationSettings/CustomValidationClosure`` decides; without one the server is refused.
    case custom
    /// Standard validation, and a certificate of the verified chain must be one of the pinned certificate
    /// files (the whole DER compared).
    case pinCertificate
    /// Standard validation, and a certificate of the verified chain must have the public key (SPKI) of one of
    /// the pinned certificate files.
    case pinPublicKey
}
