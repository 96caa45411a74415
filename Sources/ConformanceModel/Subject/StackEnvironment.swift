import Dispatch
import Foundation
import NetworkCore

/// What a case asks of the stack a subject builds: the challenge handler, the roots to trust, the
/// verification time and where delayed retries wait.
public struct StackEnvironment: Sendable {

    /// The handler to give the stack, or `nil` for standard validation.
    public let authenticationChallengeHandler: (any AuthenticationChallengeHandler)?

    /// PEM files of the roots the stack must trust *instead of* the system store (absolute paths). Empty for
    /// plain-HTTP cases.
    public let trustedRootFiles: [String]

    /// Whether the trusted roots are to be judged as public roots, as a system store's are: a stack with a validation
    /// profile then applies the Baseline Requirements' rules to chains that end at them. `false`: they are roots a
    /// user added (a private PKI), held to RFC 5280 and the security rules only. The `trust.profile` cases set it.
    public let trustedRootsArePublic: Bool

    /// The time certificates must be checked against; `nil` is the current time.
    public let verificationTime: Date?

    /// Host names to point at the loopback server instead of asking DNS. Empty unless the case needs
    /// ``SubjectFeature/resolveOverrides``.
    public let resolveOverrides: [HostOverride]

    /// The queue delayed retries should wait on.
    public let retryQueue: DispatchQueue

    /// The largest response body to accept, in bytes, counted after any `Content-Encoding` is decoded; a larger
    /// one must fail with `URLError.dataLengthExceedsMaximum`. `nil`: the stack's own default. Set only by
    /// cases that need ``SubjectFeature/maximumResponseSize``.
    public let maximumResponseSize: Int?

    /// The longest one attempt may take, from its start to its last body byte, in seconds; a longer one must
    /// fail with `URLError.timedOut`. `nil`: the stack's own default. Set only by cases that need
    /// ``SubjectFeature/resourceTimeout``.
    public let resourceTimeout: TimeInterval?
    /// The revocation checks to make (`RevocationPolicy.off` unless the case needs ``SubjectFeature/revocation``).
    public let revocation: RevocationPolicy
    /// The most certificates a verified chain may have above the leaf; a deeper chain is refused. `nil`: the stack's
    /// own default. Set only by cases that need ``SubjectFeature/maximumChainDepth``.
    public let maximumChainDepth: Int?
    /// The most redirects in a row the stack follows; the next fails the fetch with `httpTooManyRedirects`. `nil`: the
    /// stack's own bound. Set only by cases that need ``SubjectFeature/redirectLimit``.
    public let maximumRedirects: Int?

    /// Creates an environment (the runner does this for each case).
    public init(
        authenticationChallengeHandler: (any AuthenticationChallengeHandler)?,
        trustedRootFiles: [String],
        trustedRootsArePublic: Bool = false,
        verificationTime: Date?,
        resolveOverrides: [HostOverride] = [],
        retryQueue: DispatchQueue,
        maximumResponseSize: Int? = nil,
        resourceTimeout: TimeInterval? = nil,
        revocation: RevocationPolicy = .off,
        maximumChainDepth: Int? = nil,
        maximumRedirects: Int? = nil
    ) {
        self.authenticationChallengeHandler = authenticationChallengeHandler
        self.trustedRootFiles = trustedRootFiles
        self.trustedRootsArePublic = trustedRootsArePublic
        self.verificationTime = verificationTime
        self.resolveOverrides = resolveOverrides
        self.retryQueue = retryQueue
        self.maximumResponseSize = maximumResponseSize
        self.resourceTimeout = resourceTimeout
        self.revocation = revocation
        self.maximumChainDepth = maximumChainDepth
        self.maximumRedirects = maximumRedirects
    }
}
