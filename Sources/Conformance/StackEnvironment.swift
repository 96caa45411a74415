import Dispatch
import Foundation
import NetworkCore

/// A host name and port a case points at an address of its own, instead of DNS: the server is on loopback, the URL
/// keeps the name (so TLS sends it as SNI and certificates are checked against it).
public struct HostOverride: Sendable, Hashable, CustomStringConvertible {
    /// The host name as the request URL spells it, or its canonical form (a stack may look it up by either).
    public let host: String
    /// The port.
    public let port: Int
    /// The address to connect to (`127.0.0.1`).
    public let address: String

    /// Creates an override.
    public init(host: String, port: Int, address: String) {
        self.host = host
        self.port = port
        self.address = address
    }

    /// `HOST:PORT:ADDRESS`, as libcurl's `CURLOPT_RESOLVE` and curl's `--resolve` spell it.
    public var description: String { "\(host):\(port):\(address)" }
}

/// What a case asks of the stack a subject builds: the challenge handler, the roots to trust, the
/// verification time and where delayed retries wait.
public struct StackEnvironment: Sendable {

    /// The handler to give the stack, or `nil` for standard validation.
    public let authenticationChallengeHandler: (any AuthenticationChallengeHandler)?

    /// PEM files of the roots the stack must trust *instead of* the system store (absolute paths). Empty for
    /// plain-HTTP cases.
    public let trustedRootFiles: [String]

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

    /// Creates an environment (the runner does this for each case).
    public init(
        authenticationChallengeHandler: (any AuthenticationChallengeHandler)?,
        trustedRootFiles: [String],
        verificationTime: Date?,
        resolveOverrides: [HostOverride] = [],
        retryQueue: DispatchQueue,
        maximumResponseSize: Int? = nil,
        resourceTimeout: TimeInterval? = nil
    ) {
        self.authenticationChallengeHandler = authenticationChallengeHandler
        self.trustedRootFiles = trustedRootFiles
        self.verificationTime = verificationTime
        self.resolveOverrides = resolveOverrides
        self.retryQueue = retryQueue
        self.maximumResponseSize = maximumResponseSize
        self.resourceTimeout = resourceTimeout
    }
}
