import Foundation

extension ServerTrustEvaluator {

    /// Everything known about a refused server, for a failure-report callback (as TrustKit reports).
    public struct FailureReport: Sendable {
        /// The host that was refused.
        public let host: String
        /// The port connected to.
        public let port: Int
        /// The policy that applied, if any.
        public let policy: PinningPolicy?
        /// The chain the verifier built, leaf first, anchor included.
        public let verifiedChain: [ServerCertificate]
        /// The certificates the server sent, in its order.
        public let servedChain: [ServerCertificate]
        /// The pins the policy accepts, bare (without a `sha256/` they were given with), sorted.
        public let configuredPins: [String]
        /// The time the chain was checked against (the challenge's verification time).
        public let date: Date
        /// Whether the refusal happened on a reused connection, before a request.
        public let isReusedConnection: Bool
        /// The evaluation error.
        public let error: ServerTrustEvaluator.Error
        /// The refusal as the stack reports it.
        public let failure: ServerTrustFailure
    }

    /// A callback that receives a report for each refused server. It runs on the stack's transport thread,
    /// inside the handshake: it must return quickly (hand the report to a queue to upload it).
    public typealias FailureReporter = @Sendable (FailureReport) -> Void
}
