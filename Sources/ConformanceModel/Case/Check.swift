import Foundation

/// A further expectation of a case, beyond its outcome and journal: what the interceptors saw, what
/// the server received, what the trust handler was asked.
package enum Check: Sendable, Hashable, CustomStringConvertible {
    /// The recording interceptors' hook calls, in order, as `name.hook` (`a.make`, `a.scheduled`,
    /// `a.success`, `a.failure`).
    case hooks([String])
    /// After the runner cancelled the fetch, no recording interceptor's failed or scheduled hook ran: the
    /// cancellation was not offered as a failure, and no retry started (CANCEL-3). The runner then ends the
    /// server's side of the connection, so that a transfer the stack left running fails where the hooks see it.
    case noRetryHookAfterCancel
    /// After the runner cancelled the fetch in flight, the stack stopped the exchange before the server gave up on it
    /// (a second): it closed the connection, or over HTTP/2 reset the stream (CANCEL-3). A stack that only forgot the
    /// fetch would leave its transfer running: an upload still sending, a download still receiving, a pooled slot held.
    case exchangeStoppedAfterCancel
    /// The retry counts of the state the recording interceptors' failed hook saw, in order.
    case failureRetryCounts([Int])
    /// The total delays of the state the recording interceptors' failed hook saw, in order.
    case failureTotalDelays([Double])
    /// The retry counts of the state the recording interceptors' scheduled hook saw, in order.
    case scheduledRetryCounts([Int])
    /// The total delays of the state the recording interceptors' scheduled hook saw, in order.
    case scheduledTotalDelays([Double])
    /// How many distinct task identifiers the recording interceptors saw (one per attempt).
    case distinctTaskIdentifiers(Int)
    /// Every scheduled hook carried an identifier no earlier hook had (a new task), and every failed or success
    /// hook the identifier of the scheduled hook before it (the task it reports on), for each recording interceptor.
    case hooksCarryTheirAttemptsIdentifier
    /// The request at this index (arrival order, from 0) carried this header value (`nil`: no such header).
    case requestHeader(index: Int, name: String, value: String?)
    /// The request at this index used this method.
    case requestMethod(index: Int, method: String)
    /// The request at this index carried this body (UTF-8).
    case requestBody(index: Int, body: String)
    /// The request at this index carried exactly these bytes as its body: for bodies that are not text.
    case requestBodyBytes(index: Int, body: Data)
    /// The request at this index asked for this path.
    case requestPath(index: Int, path: String)
    /// The completion ran exactly this many times (checked after a grace period).
    case completions(Int)
    /// The priority closure was called with these `(accumulated|next)` pairs, in order.
    case priorityCalls([String])
    /// The trust handler was asked this many times.
    case challenges(Int)
    /// The trust handler was asked about each of these hosts, in this order of first appearance, and no other.
    case challengedHosts([String])
    /// The first challenge named this host and carried chains with these SPKI pins (leaf first; `nil`: not checked).
    case challenge(host: String, servedPins: [String]?, verifiedPins: [String]?)
    /// The first challenge's standard validation: `valid` or the `ChainValidationFailure` kind.
    case challengeStandardValidation(String)
    /// Every challenge after the first was the re-check of a reused connection.
    case laterChallengesAreReused
    /// The last challenge's standard validation: `valid` or the `ChainValidationFailure` kind.
    case lastChallengeStandardValidation(String)
    /// The request at this index came with this SNI name (compared without case, as RFC 6066 says;
    /// a trailing dot is a difference).
    case requestSNI(index: Int, name: String)
    /// The request at this index reached the server between `atLeast` and `atMost` seconds after the one
    /// before it (server-side arrival times).
    case requestGap(index: Int, atLeast: Double, atMost: Double)
    /// Of the case's fetches of this path (its own, concurrent ones, probes), this many ended with this kind.
    case fetches(path: String, kind: Outcome.Kind, count: Int)
    /// No fetch of the case, the first or another, failed with this `URLError` code.
    case noFetchFailedWith(urlErrorCode: Int)
    /// On each connection whose server asked for a client certificate, in order, the subject of the leaf the
    /// client presented, or `none`.
    case presentedClientCertificates([String])
    /// The handler got client-certificate challenges, each naming these certificate authorities as the ones the server
    /// accepts (RFC 2253 form, in the server's order).
    case clientChallengesNameIssuers([String])
    /// The handler's client-certificate challenges, in order, marked reused (`true`) or not.
    case clientChallengesReused([Bool])
    /// Every challenge carries the first one's served and verified chains and standard validation's verdict, and none
    /// is a reused-connection re-check: connections that resumed a session were asked as the first, new, one was.
    case challengesCarryTheFirstEvidence

    package var description: String {
        switch self {
        case .hooks(let hooks): "hooks \(hooks)"
        case .noRetryHookAfterCancel: "no failed or scheduled hook after the cancel"
        case .exchangeStoppedAfterCancel: "the exchange stopped by the client after the cancel"
        case .failureRetryCounts(let counts): "failed-hook retry counts \(counts)"
        case .failureTotalDelays(let delays): "failed-hook total delays \(delays)"
        case .scheduledRetryCounts(let counts): "scheduled-hook retry counts \(counts)"
        case .scheduledTotalDelays(let delays): "scheduled-hook total delays \(delays)"
        case .distinctTaskIdentifiers(let n): "\(n) distinct task identifiers"
        case .hooksCarryTheirAttemptsIdentifier: "each attempt's hooks carry that attempt's own task identifier"
        case .requestHeader(let index, let name, let value): "request #\(index) header \(name) = \(value ?? "absent")"
        case .requestMethod(let index, let method): "request #\(index) method \(method)"
        case .requestBody(let index, let body): "request #\(index) body \(body.debugDescription)"
        case .requestBodyBytes(let index, let body): "request #\(index) body of \(body.count) bytes, SHA-256 \(SHA256.hex(body))"
        case .requestPath(let index, let path): "request #\(index) path \(path)"
        case .completions(let n): "completion called exactly \(n) time(s)"
        case .priorityCalls(let calls): "priority closure calls \(calls)"
        case .challenges(let n): "\(n) trust challenge(s)"
        case .challengedHosts(let hosts): "trust challenges for \(hosts.joined(separator: ", "))"
        case .challenge(let host, let served, let verified):
            "challenge for \(host)" + (served.map { ", served pins \($0)" } ?? "") + (verified.map { ", verified pins \($0)" } ?? "")
        case .challengeStandardValidation(let result): "standard validation \(result)"
        case .laterChallengesAreReused: "later challenges are reused-connection re-checks"
        case .lastChallengeStandardValidation(let result): "last challenge's standard validation \(result)"
        case .requestSNI(let index, let name): "request #\(index) SNI \(name)"
        case .requestGap(let index, let low, let high): "request #\(index) arrives \(low)–\(high) s after request #\(index - 1)"
        case .fetches(let path, let kind, let count): "\(count) fetch(es) of \(path) ended \(kind.rawValue)"
        case .noFetchFailedWith(let code): "no fetch failed with \(URLErrorName.describe(code))"
        case .presentedClientCertificates(let leaves): "client certificates presented per asking connection \(leaves)"
        case .clientChallengesNameIssuers(let names): "client-certificate challenges name the acceptable issuers \(names)"
        case .clientChallengesReused(let flags): "client-certificate challenges marked reused \(flags)"
        case .challengesCarryTheFirstEvidence: "every challenge carries the first one's chains and validation, as a new connection's"
        }
    }
}
