import Foundation
import NetworkCore

/// One host's trust rule in a ``TrustManager``: a ``ValidationType`` and the ``ValidationSettings`` it was
/// created with. Immutable; make one with ``TrustManager/create(type:hostName:settings:)``.
public struct TrustPolicy: Sendable, CustomStringConvertible {

    /// The host, lowercased and without a trailing dot.
    public let hostName: String

    /// How the policy decides.
    public let type: ValidationType

    /// The settings' ``ValidationSettings/sslValidateHostName``.
    public let validatesHostName: Bool

    /// The settings' ``ValidationSettings/certificatePinOnly``.
    public let certificatePinOnly: Bool

    /// The settings' ``ValidationSettings/certificateDirectory``.
    public let certificateDirectory: URL?

    private let customValidation: ValidationSettings.CustomValidationClosure?
    private let pinned: PinnedCertificates

    init(type: ValidationType, hostName: String, settings: ValidationSettings) {
        self.hostName = HostName.normalized(hostName)
        self.type = type
        self.validatesHostName = settings.sslValidateHostName
        self.certificatePinOnly = settings.certificatePinOnly
        self.certificateDirectory = settings.certificateDirectory
        self.customValidation = settings.customValidation
        // Only pinning policies read files, once, here: never inside a handshake.
        self.pinned =
            type == .pinCertificate || type == .pinPublicKey
            ? PinnedCertificates(directory: settings.certificateDirectory)
            : PinnedCertificates(certificates: [], problem: nil)
    }

    /// Why the policy cannot work (for example an empty or unreadable certificate directory), or `nil`.
    /// A policy with a problem refuses every server with `ServerTrustFailure/Reason/configurationInvalid`;
    /// check this at start-up.
    public var configurationProblem: String? {
        if let problem = hostNameProblem { return problem }
        if type == .custom, customValidation == nil { return "a custom policy has no customValidation closure" }
        return pinned.problem
    }

    /// Why ``hostName`` can never be the host of a request (a scheme, a path, a port, a wildcard…), or `nil`. A single
    /// label is a host name here (an internal service's short name), unlike for a pinning policy's domain.
    var hostNameProblem: String? {
        guard let problem = HostName.problem(with: hostName, includeSubdomains: false), problem != .topLevelDomain else { return nil }
        return "the host name \"\(DisplayText.line(hostName))\" can never match a request: \(problem); give the host name alone"
    }

    /// The SPKI pins of the pinned certificates, in file order.
    public var pinnedHashes: [String] { pinned.certificates.map(\.spkiSHA256) }

    /// Whether the policy trusts the server of a challenge.
    public func validate(trust challenge: ServerTrustChallenge) -> Bool {
        if case .useCredential = disposition(for: challenge) { return true }
        return false
    }

    /// The policy's decision about a challenge: trust, or refuse with the reason.
    public func disposition(for challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        switch type {
        case .disabled:
            return .useCredential
        case .standard:
            if let refusal = standardRefusal(challenge) { return .cancelAuthenticationChallenge(refusal) }
            return .useCredential
        case .custom:
            guard let customValidation else {
                return .cancelAuthenticationChallenge(failure(.configurationInvalid, challenge, configurationProblem))
            }
            return customValidation(challenge)
                ? .useCredential
                : .cancelAuthenticationChallenge(failure(.refused, challenge, "the custom validation closure refused the server"))
        case .pinCertificate, .pinPublicKey:
            if let problem = pinned.problem {
                return .cancelAuthenticationChallenge(failure(.configurationInvalid, challenge, problem))
            }
            if certificatePinOnly { return pinOnlyDisposition(challenge) }
            if let refusal = standardRefusal(challenge) { return .cancelAuthenticationChallenge(refusal) }
            if challenge.verifiedChain.contains(where: isPinned) { return .useCredential }
            return .cancelAuthenticationChallenge(
                failure(
                    .noPinMatched, challenge, "no certificate of the verified chain is pinned (\(type))"))
        }
    }

    public var description: String {
        var traits = ["\(type)"]
        if !validatesHostName { traits.append("sslValidateHostName=false") }
        if certificatePinOnly { traits.append("certificatePinOnly") }
        if let certificateDirectory { traits.append("certificates in \(certificateDirectory.path)") }
        return "\(hostName) (\(traits.joined(separator: ", ")))"
    }

    // MARK: Rules

    /// The refusal standard validation calls for, or `nil`. A host-name mismatch is waived when
    /// ``validatesHostName`` is off: the stack checks the host name only after the chain, dates and purpose
    /// verified, so that failure alone means everything else held.
    private func standardRefusal(_ challenge: ServerTrustChallenge) -> ServerTrustFailure? {
        guard case .failure(let chainFailure) = challenge.standardValidation else { return nil }
        if chainFailure.kind == .hostnameMismatch {
            return validatesHostName ? failure(.hostnameMismatch, challenge, "\(chainFailure)") : nil
        }
        return failure(.chainNotTrusted(chainFailure), challenge, "\(chainFailure)")
    }

    private func isPinned(_ certificate: ServerCertificate) -> Bool {
        switch type {
        case .pinCertificate: return pinned.certificates.contains { $0.der == certificate.der }
        default: return pinned.certificates.contains { $0.spkiSHA256 == certificate.spkiSHA256 }
        }
    }

    /// Pin-only mode (TM-10): walks from the served leaf to each certificate whose key verifies the
    /// previous one's signature; passes only when a certificate on that walk is pinned, or a pinned
    /// certificate's key verifies the signature of one on the walk. Certificates the server sent that do not
    /// sign into the leaf's path are never considered.
    private func pinOnlyDisposition(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        guard let leaf = challenge.servedChain.first, let leafObject = X509Object(der: leaf.der) else {
            return .cancelAuthenticationChallenge(failure(.pinNotComputable, challenge, "the served leaf could not be parsed"))
        }
        let pinnedObjects = pinned.certificates.compactMap { X509Object(der: $0.der) }
        var remaining = Array(challenge.servedChain.dropFirst()).compactMap { certificate in
            X509Object(der: certificate.der).map { (certificate, $0) }
        }
        var current = (leaf, leafObject)
        while true {
            if isPinned(current.0) || pinnedObjects.contains(where: { current.1.isSigned(by: $0) }) {
                return .useCredential
            }
            guard let next = remaining.firstIndex(where: { current.1.isSigned(by: $0.1) }) else { break }
            current = remaining.remove(at: next)
        }
        return .cancelAuthenticationChallenge(
            failure(
                .noPinMatched, challenge,
                "pin-only mode: no pinned key is the leaf's or signs the leaf's path (certificates merely served are ignored)"))
    }

    private func failure(_ reason: ServerTrustFailure.Reason, _ challenge: ServerTrustChallenge, _ detail: String?) -> ServerTrustFailure {
        ServerTrustFailure(
            reason: reason, host: challenge.host, policy: description, configuredPins: pinnedHashes,
            seenCertificates: challenge.verifiedChain.isEmpty || certificatePinOnly ? challenge.servedChain : challenge.verifiedChain,
            detail: [detail, "port \(challenge.port)\(challenge.isReusedConnection ? ", reused connection" : "")"]
                .compactMap { $0 }.joined(separator: "; "))
    }
}
