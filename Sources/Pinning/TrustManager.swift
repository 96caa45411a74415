/// Per-host trust policies (the GCXTrustPolicy design), usable as a stack's `AuthenticationChallengeHandler`.
///
/// ```swift
/// let trustManager = TrustManager()
/// let settings = ValidationSettings.defaultSettings
/// settings.certificateDirectory = URL(fileURLWithPath: "/etc/myapp/pins")
/// trustManager.add(policies: [
///     trustManager.create(type: .pinPublicKey, hostName: "pinnedHost.com", settings: settings),
///     trustManager.create(type: .standard, hostName: "cdn.example.com"),
/// ])
/// let network = Network.URLSessionNetworkStack(authenticationChallengeHandler: trustManager, retryQueue: queue)
/// ```
///
/// Policies are looked up by exact host name (case-insensitive, one trailing dot ignored); a host without a
/// policy is refused with `ServerTrustFailure/Reason/noPolicyForHost`. Policies may be added and removed
/// at any time; a change applies to the next handshake and to the next request on a reused connection.
public final class TrustManager: AuthenticationChallengeHandler {

    /// A shared manager.
    public static let shared = TrustManager()

    private let policies = Locked<[String: TrustPolicy]>([:])

    /// Creates a manager without policies.
    public init() {}

    /// Makes a policy (it is not added). Pin files are read now; see ``TrustPolicy/configurationProblem``.
    public func create(type: ValidationType, hostName: String, settings: ValidationSettings = .defaultSettings) -> TrustPolicy {
        TrustPolicy(type: type, hostName: hostName, settings: settings)
    }

    /// Adds a policy, replacing the one for the same host.
    public func add(policy: TrustPolicy) {
        policies.withLock { $0[policy.hostName] = policy }
    }

    /// Adds policies, each replacing the one for the same host.
    public func add(policies newPolicies: [TrustPolicy]) {
        policies.withLock { table in for policy in newPolicies { table[policy.hostName] = policy } }
    }

    /// Removes the policy for a host.
    public func removePolicy(name: String) {
        _ = policies.withLock { $0.removeValue(forKey: HostName.normalized(name)) }
    }

    /// The policy for a host, if any.
    public func policy(for hostName: String) -> TrustPolicy? {
        policies.withLock { $0[HostName.normalized(hostName)] }
    }

    /// The hosts with a policy, sorted.
    public var allNames: [String] { policies.withLock { $0.keys.sorted() } }

    /// The policies, sorted by host.
    public var allPolicies: [TrustPolicy] { policies.withLock { $0.values.sorted { $0.hostName < $1.hostName } } }

    /// Decides with the host's policy; refuses hosts without one.
    public func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        guard let policy = policy(for: challenge.host) else {
            // A policy added under a name no request can have (`https://api.example.com/`) is the likeliest reason a
            // host has none: say so where the user looks.
            let unusable = allPolicies.compactMap(\.hostNameProblem)
            let ignored = unusable.isEmpty ? "" : "; policies no request can match: \(unusable.joined(separator: "; "))"
            return .cancelAuthenticationChallenge(
                ServerTrustFailure(
                    reason: .noPolicyForHost, host: challenge.host,
                    seenCertificates: challenge.verifiedChain.isEmpty ? challenge.servedChain : challenge.verifiedChain,
                    detail: "the trust manager has no policy for this host\(ignored); port \(challenge.port)"))
        }
        return policy.disposition(for: challenge)
    }
}
