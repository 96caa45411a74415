/// When a transport sends a request again by itself, unseen by interceptors and the retry policy, because its
/// connection lost it with no response (HTTP-18, HTTP-22).
///
/// A request goes again only when the server did not act on it, or when acting twice changes nothing: a stream the
/// server refused (RST_STREAM `REFUSED_STREAM`) or left out of a `GOAWAY` (its ID above the last-stream-id) was
/// provably not processed (RFC 9113 §8.7), whatever its method; a request whose fate is not known (a reused HTTP/1.1
/// connection closed under it, a `GOAWAY` a library does not say the stream was left out of) goes again only if its
/// method is idempotent (RFC 9110 §9.2.2). Either way at most ``maximumReplays`` times in a row with no response in
/// between: a server that never processes the request ends the fetch with `networkConnectionLost`.
///
/// Both stacks of this package count and decide with it.
public struct ReplayRule: Sendable, Equatable {

    /// Why a request got no response on the connection it was sent on.
    public enum Cause: Sendable, Equatable {
        /// The server refused the stream (HTTP/2 `REFUSED_STREAM`): it did not process it.
        case refusedStream
        /// A `GOAWAY` whose last-stream-id is below the stream's ID: the server did not process it.
        case leftOutByGoAway
        /// The session ended after a `GOAWAY`, and the library does not say whether the stream was left out of it.
        case endedByGoAway
        /// A reused connection was lost after the request was written, before any response.
        case reusedConnectionLost
    }

    /// What to do with a request that got no response.
    public enum Decision: Sendable, Equatable {
        /// Send it again, on a new connection.
        case sendAgain
        /// Fail the fetch: the server may have acted on a request that is not idempotent.
        case lostAfterSending
        /// Fail the fetch: it was sent this many times in a row with no response.
        case exhausted(sends: Int)
    }

    /// The most times a request is sent again in a row with no response in between.
    public static let maximumReplays = 2

    /// The sends again so far since the last response.
    public private(set) var replays = 0

    /// A rule that has sent nothing again yet.
    public init() {}

    /// Whether a request with no response may go again for `cause`, leaving the bound aside.
    ///
    /// - Parameters:
    ///   - cause: why the request got no response.
    ///   - isIdempotent: whether the request's method may be repeated (``RequestCheck/mayBeSentAgain(_:)``).
    public static func allows(_ cause: Cause, isIdempotent: Bool) -> Bool {
        switch cause {
        case .refusedStream, .leftOutByGoAway: return true
        case .endedByGoAway, .reusedConnectionLost: return isIdempotent
        }
    }

    /// Decides on a request that got no response, counting a send again against the bound.
    ///
    /// - Parameters:
    ///   - cause: why the request got no response.
    ///   - isIdempotent: whether the request's method may be repeated (``RequestCheck/mayBeSentAgain(_:)``).
    public mutating func decide(_ cause: Cause, isIdempotent: Bool) -> Decision {
        guard Self.allows(cause, isIdempotent: isIdempotent) else { return .lostAfterSending }
        replays += 1
        guard replays <= Self.maximumReplays else { return .exhausted(sends: replays) }
        return .sendAgain
    }

    /// A response arrived: the next loss starts a new count.
    public mutating func responseArrived() {
        replays = 0
    }
}
