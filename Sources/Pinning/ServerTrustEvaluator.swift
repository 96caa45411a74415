import Foundation

/// An `AuthenticationChallengeHandler` that pins the SPKI SHA-256 of certificates per domain, as Alicerce's
/// `ServerTrustEvaluator` does (RFC 7469 style pins, not strict), with this project's decisions:
///
/// - Pins are matched only against the chain the verifier built (`ServerTrustChallenge/verifiedChain`,
///   anchor included), never against other certificates the server sent.
/// - Pins add to standard validation and never replace it: a server is trusted only when its chain, dates,
///   host name and purpose were verified **and** a pin matched.
/// - Host names match case-insensitively, ignoring one trailing dot; a policy with `includeSubdomains`
///   covers its domain and every subdomain, never a parent. The exact domain's policy wins, then the longest
///   covering domain.
/// - The decision is taken inside the TLS handshake of every new connection, and again before every request
///   on a reused connection, so a refused server never receives a request byte.
///
/// ```swift
/// let serverTrustEvaluator = try ServerTrustEvaluator(configuration: configuration)
/// let network = Network.URLSessionNetworkStack(
///     authenticationChallengeHandler: serverTrustEvaluator,
///     retryQueue: DispatchQueue(label: "com.alicerce.network.retry-queue"))
/// ```
///
/// A refusal completes the fetch with `URLSessionError.url(URLError(.serverCertificateUntrusted))`, whose
/// `serverTrustFailure` names the host, the policy, the configured pins and the verified chain's pins.
public final class ServerTrustEvaluator: AuthenticationChallengeHandler {

    /// The policies and options.
    public let configuration: Configuration

    private let failureReporter: FailureReporter?

    /// Creates an evaluator.
    ///
    /// - Parameters:
    ///   - configuration: The validated policies and options.
    ///   - failureReporter: Called with a report for each refused server (default none).
    /// - Throws: Never in this implementation (the configuration is validated when it is created); it stays
    ///   `throws` for source compatibility with Alicerce.
    public init(configuration: Configuration, failureReporter: FailureReporter? = nil) throws {
        self.configuration = configuration
        self.failureReporter = failureReporter
    }

    /// Evaluates a challenge against the configuration.
    ///
    /// Returns normally when the host's policy is satisfied: standard validation succeeded and a certificate
    /// of the verified chain has a configured pin.
    ///
    /// - Throws: ``Error/domainNotPinned``, ``Error/domainPolicyExpired`` (at the challenge's verification
    ///   time), or ``Error/pinVerificationFailed(_:)``.
    public func evaluate(_ challenge: ServerTrustChallenge) throws(Error) {
        if case .failure(let error) = evaluation(of: challenge).result { throw error }
    }

    /// Maps the evaluation onto a disposition (PIN-11, PIN-12): success trusts the server; a host
    /// without a policy, or with an expired one, gets standard validation when the configuration allows it;
    /// everything else is refused with a `ServerTrustFailure`.
    public func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        let (policy, result) = evaluation(of: challenge)
        let error: Error
        switch result {
        case .success:
            return .useCredential
        case .failure(.domainNotPinned) where configuration.allowNotPinnedDomains,
            .failure(.domainPolicyExpired) where configuration.allowExpiredDomainPolicies:
            return .performDefaultHandling
        case .failure(let failure):
            error = failure
        }
        let refusal = failure(for: error, policy: policy, challenge: challenge)
        failureReporter?(
            FailureReport(
                host: challenge.host, port: challenge.port, policy: policy,
                verifiedChain: challenge.verifiedChain, servedChain: challenge.servedChain,
                configuredPins: refusal.configuredPins, date: challenge.verificationTime,
                isReusedConnection: challenge.isReusedConnection, error: error, failure: refusal))
        return .cancelAuthenticationChallenge(refusal)
    }

    // MARK: Evaluation

    private func evaluation(of challenge: ServerTrustChallenge) -> (policy: PinningPolicy?, result: Result<Void, Error>) {
        guard let policy = configuration.policy(forHost: challenge.host) else { return (nil, .failure(.domainNotPinned)) }
        if policy.isExpired(at: challenge.verificationTime) { return (policy, .failure(.domainPolicyExpired)) }
        return (policy, verifyPins(of: policy, in: challenge).mapError { .pinVerificationFailed($0) })
    }

    private func verifyPins(of policy: PinningPolicy, in challenge: ServerTrustChallenge) -> Result<Void, PublicKeyPinVerificationError> {
        if case .failure(let failure) = challenge.standardValidation { return .failure(.evaluation(failure)) }
        let chain = challenge.verifiedChain
        guard !chain.isEmpty else { return .failure(.noVerifiedChain) }
        var notComputable: Int?
        for index in configuration.certificateCheckingOrder.indices(forChainOfLength: chain.count) {
            // The stack's own pins are canonical base64 already: look them up as they are, and canonicalise only
            // a pin that does not match (it may come from another verifier), on the failure path.
            let seen = chain[index].spkiSHA256
            if policy.canonicalPins.contains(seen) { return .success(()) }
            guard let pin = SPKIPin.canonical(seen) else {
                notComputable = notComputable ?? index
                continue
            }
            if pin != seen, policy.canonicalPins.contains(pin) { return .success(()) }
        }
        return .failure(notComputable.map { .pinNotComputable(index: $0) } ?? .pinnedHashNotFound)
    }

    // MARK: Diagnostics

    private func failure(for error: Error, policy: PinningPolicy?, challenge: ServerTrustChallenge) -> ServerTrustFailure {
        let reason: ServerTrustFailure.Reason
        var detail: String
        switch error {
        case .domainNotPinned:
            reason = .noPolicyForHost
            detail = "no pinning policy covers this host, and allowNotPinnedDomains is false"
        case .domainPolicyExpired:
            reason = .policyExpired
            detail =
                "the policy expired before the verification time \(ISO8601DateFormatter().string(from: challenge.verificationTime)), "
                + "and allowExpiredDomainPolicies is false"
        case .pinVerificationFailed(.evaluation(let failure)):
            reason = failure.kind == .hostnameMismatch ? .hostnameMismatch : .chainNotTrusted(failure)
            detail = "standard validation failed (\(failure)); pins never replace it"
        case .pinVerificationFailed(.noVerifiedChain):
            reason = .pinNotComputable
            detail = "the verifier built no chain to check pins against"
        case .pinVerificationFailed(.pinNotComputable(let index)):
            reason = .pinNotComputable
            detail = "no pin matched, and the pin of certificate #\(index) could not be computed"
        case .pinVerificationFailed(.pinnedHashNotFound):
            reason = .noPinMatched
            detail = "no certificate of the verified chain has a configured pin"
        }
        detail += "; port \(challenge.port)\(challenge.isReusedConnection ? ", reused connection" : "")"
        let verifiedPins = Set(challenge.verifiedChain.map(\.spkiSHA256))
        let ignored = challenge.servedChain.filter { !verifiedPins.contains($0.spkiSHA256) }
        if !ignored.isEmpty, !challenge.verifiedChain.isEmpty {
            let listed = ignored.map { "\($0.spkiSHA256) (\($0.subject))" }.joined(separator: ", ")
            detail += "; served but not in the verified chain, so never matched: [\(listed)]"
        }
        return ServerTrustFailure(
            reason: reason, host: challenge.host, policy: policy?.description,
            configuredPins: policy.map { $0.canonicalPins.sorted() } ?? [],
            seenCertificates: challenge.verifiedChain.isEmpty ? challenge.servedChain : challenge.verifiedChain,
            detail: detail)
    }
}
