import Foundation

/// Options of a ``TrustPolicy``, read once when ``TrustManager/create(type:hostName:settings:)`` makes the
/// policy (changing them afterwards does not change existing policies).
///
/// ```swift
/// let settings = ValidationSettings.defaultSettings
/// settings.sslValidateHostName = false
/// settings.certificateDirectory = URL(fileURLWithPath: "/etc/myapp/pins")
/// let policy = trustManager.create(type: .pinPublicKey, hostName: "otherPinnedHost.com", settings: settings)
/// ```
public final class ValidationSettings {

    /// A custom decision, for ``ValidationType/custom``: `true` trusts the server. It runs inside the TLS
    /// handshake on the stack's transport thread and must return quickly.
    public typealias CustomValidationClosure = @Sendable (ServerTrustChallenge) -> Bool

    /// Whether the certificate must be for the host (default `true`). When `false`, a server whose chain,
    /// dates and purpose verified but whose certificate names another host is accepted.
    public var sslValidateHostName = true

    /// Pin-only mode (default `false`), **unsafe**: chain trust, dates and host name are not checked, only the
    /// pins. Still never a pass for a pinned certificate that is merely present in the served list: the pinned
    /// key must be the leaf's, or belong to a certificate whose signature chains the leaf to it (TM-10).
    public var certificatePinOnly = false

    /// The directory whose certificate files (`.pem`, `.crt`, `.cer`, `.der`; PEM or DER; a PEM file may hold
    /// several certificates) are the pins of ``ValidationType/pinCertificate`` and
    /// ``ValidationType/pinPublicKey`` policies. It takes the place of the original's certificate bundle.
    /// `nil` (the default) pins nothing, and pinning policies then refuse every server.
    public var certificateDirectory: URL?

    /// The closure of ``ValidationType/custom`` policies.
    public var customValidation: CustomValidationClosure?

    /// Creates default settings.
    public init() {}

    /// New default settings (a new object each time).
    public static var defaultSettings: ValidationSettings { ValidationSettings() }
}
