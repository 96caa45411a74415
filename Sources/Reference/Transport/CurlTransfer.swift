internal import CCurl
internal import CShims
import Foundation
import NetworkCore
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange on a libcurl easy handle: what it has received, and the completion it calls exactly
/// once, on the loop thread.
///
/// Created on any thread, then touched only by the loop thread (and by libcurl's callbacks, which run
/// there), hence `@unchecked Sendable`. Two exceptions, both after the transfer left (or never joined) the
/// multi handle, so nothing else touches it any more: a transfer submitted to a stopped loop completes on the
/// submitting thread, and the last reference may run `deinit` anywhere.
final class CurlTransfer: Cancelable, @unchecked Sendable {

    typealias Completion = @Sendable (Network.TransportOutcome) -> Void

    /// Why the transfer's own callbacks stopped it.
    enum Stop {
        case bodyTooLarge(limit: Int)
        case headTooLarge
        /// The request was about to be sent a further time with no response in between (a refused HTTP/2 stream, a
        /// `GOAWAY` that left it out, a reused connection found dead), past NetworkCore's `ReplayRule`'s bound; it
        /// had been sent this many times.
        case replaysExhausted(sends: Int)
        /// A redirect would have gone on a pooled connection that presented another client identity than the
        /// handler chooses now, and starting over would send the first request again.
        case connectionPresentedAnotherIdentity
        /// libcurl was about to send a request that is not idempotent again over HTTP/1.1, after its connection was
        /// lost with no response: the server may have acted on it (HTTP-22).
        case lostAfterSending
    }

    let easy: CurlEasy
    let trust: TLSTrustContext
    let url: URL
    let isHTTPS: Bool
    /// Whether the request's method may be repeated without changing more than one request would (RFC 9110 §9.2.2).
    let isIdempotent: Bool
    private let loop: CurlMultiLoop
    private var completion: Completion?
    private let maximumResponseSize: Int?

    /// The response heads, as they arrive.
    private(set) var heads = ResponseHeadParser()
    /// The body; `nil` until the first byte arrives, which is how "no body" differs from "empty body".
    private var body: Data?
    /// Set by the TLS callbacks: the last judgement of the server this transfer talks to.
    var trustVerdict: TrustVerdict?
    /// Set by the TLS callbacks when the server asked the connection for a client certificate.
    var clientCertificate: ClientCertificateExchange?
    /// The socket libcurl last opened for this transfer (the connection its TLS handshake is about to run on).
    var lastOpenedSocket: Int32?
    /// Set when the request must not go on the connection libcurl chose (it presented another client identity):
    /// the loop starts the transfer over on a new connection.
    var needsNewConnection = false
    /// Set when a callback of this transfer aborted it.
    private(set) var stop: Stop?
    /// The response heads seen so far, that count when the last request started (`nil` before the first), and the
    /// sends in a row with no head between them: a request that starts with no new head since the previous one
    /// is a replay.
    private var statusLines = 0
    private var statusLinesAtLastRequest: Int?
    private var replays = ReplayRule()
    /// The two above as they were before the last request started, to take back a send that never happened.
    private var countsBeforeLastRequest: (statusLines: Int?, replays: ReplayRule) = (nil, ReplayRule())

    /// No byte for this long fails the transfer as timed out.
    let idleTimeout: Duration
    /// When a byte last moved (or the transfer started): the idle timer counts from here.
    private(set) var lastProgress = ContinuousClock.now
    private var uploaded: curl_off_t = 0

    private let cancelFlag = CancelFlag()

    /// Makes a transfer for a request; throws the `URLError` that fails it when its options cannot be set.
    init(
        request: URLRequest, url: URL, trust: TLSTrustContext, configuration: Network.URLSessionNetworkStack.Configuration,
        loop: CurlMultiLoop, completion: @escaping Completion
    ) throws(URLError) {
        do { easy = try CurlEasy(from: loop.easyHandles) } catch {
            throw URLError(.cannotLoadFromNetwork, failure: error.transportFailure, url: url)
        }
        self.url = url
        self.trust = trust
        self.loop = loop
        self.completion = completion
        isHTTPS = url.scheme?.lowercased() == "https"
        isIdempotent = RequestCheck.mayBeSentAgain(request)
        maximumResponseSize = configuration.maximumResponseSize
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        idleTimeout = .milliseconds(CurlRequestSetup.milliseconds(timeout))
        try CurlRequestSetup(request: request, url: url, configuration: configuration).apply(to: self)
    }

    // MARK: Cancelable

    var isCancelled: Bool { cancelFlag.isSet }

    func cancel() {
        guard cancelFlag.set() else { return }
        loop.cancel(self)
    }

    // MARK: libcurl callbacks (loop thread)

    /// Appends body bytes; returns `false` to abort the transfer when the body grows past the limit.
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastProgress = .now
        if let maximumResponseSize, (body?.count ?? 0) + bytes.count > maximumResponseSize {
            stop = .bodyTooLarge(limit: maximumResponseSize)
            return false
        }
        if body == nil {
            // The server's Content-Length is a hint, not a promise: reserve at most 1 MiB ahead.
            let expected = easy.offset(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T) ?? -1
            body = Data(capacity: expected > 0 ? min(expected, 1 << 20) : bytes.count)
        }
        body!.append(contentsOf: bytes)
        return true
    }

    /// Takes a head line; returns `false` to abort the transfer when the heads grow past their limit.
    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastProgress = .now
        if bytes.starts(with: "HTTP/".utf8) {  // a new response (after a redirect or 1xx) starts
            body = nil
            statusLines += 1
        }
        guard heads.consume(bytes) else {
            stop = .headTooLarge
            return false
        }
        return true
    }

    /// Counts a request libcurl is about to send; returns `false` to stop a replay past the bound.
    ///
    /// libcurl 7.88 sends a request again by itself, up to five times and unseen by interceptors and the retry
    /// policy, when an HTTP/2 stream is refused or a reused connection turns out dead; no option turns that off.
    /// The stack sends a request a `GOAWAY` left out again itself (``wasExcludedByGoAway(_:)``). Each send passes
    /// the pre-request callback, so the one bound for both is kept here.
    ///
    /// Over HTTP/1.1 libcurl also resends a request whose reused connection died after it was written, whatever its
    /// method: a request that is not idempotent stops there instead (HTTP-22). Over HTTP/2 libcurl resends only
    /// streams the server refused, which it provably did not process (HTTP-18).
    func startingRequest(overHTTP2: Bool) -> Bool {
        countsBeforeLastRequest = (statusLinesAtLastRequest, replays)
        defer { statusLinesAtLastRequest = statusLines }
        guard statusLines == statusLinesAtLastRequest else {
            replays.responseArrived()
            return true
        }
        switch replays.decide(overHTTP2 ? .refusedStream : .reusedConnectionLost, isIdempotent: isIdempotent) {
        case .sendAgain:
            return true
        case .lostAfterSending:
            stop = .lostAfterSending
        case .exhausted(let sends):
            stop = .replaysExhausted(sends: sends)
        }
        return false
    }

    /// Whether libcurl most likely ended the transfer because a `GOAWAY` left its stream out, so that the server
    /// never processed it, and sending it again is safe.
    ///
    /// libcurl 7.88 reports `CURLE_HTTP2` when its HTTP/2 session has wound down after a `GOAWAY` with the stream
    /// unfinished: nghttp2 closes the streams above the `GOAWAY`'s last-stream-id as refused. But the same code
    /// comes when the server resets the stream for another reason in the same breath as its `GOAWAY`, and libcurl
    /// says which nowhere, so the request may have been processed. Hence only a request that may be repeated
    /// anyway is sent again: an idempotent method (RFC 9110 §9.2.2), and no response head since it was sent.
    func wasExcludedByGoAway(_ code: CURLcode) -> Bool {
        code == CURLE_HTTP2 && statusLines == statusLinesAtLastRequest && stop == nil && !isCancelled
            && ReplayRule.allows(.endedByGoAway, isIdempotent: isIdempotent)
    }

    /// Leaves the connection libcurl chose, which the server closed while it was idle in the pool, for a new one;
    /// the send that was about to start never happened, so it is not counted against the replay bound. `false`
    /// after a response (a redirect): starting over would send the first request again, so libcurl goes on.
    func leaveConnectionClosedByServer() -> Bool {
        guard heads.head == nil else { return false }
        startOverOnNewConnection()
        return true
    }

    /// Starts the transfer over on a new connection before its request went out on the one libcurl chose: that send
    /// never happened, so it counts neither against the replay bound nor as a resend.
    func startOverOnNewConnection() {
        (statusLinesAtLastRequest, replays) = countsBeforeLastRequest
        needsNewConnection = true
    }

    /// Stops the transfer because the connection a redirect would use presented another client identity.
    func stopForAnotherIdentity() { stop = .connectionPresentedAnotherIdentity }

    /// Whether the transfer must start over on a new connection, which it then asks libcurl for; clears the flag.
    func startsOverOnNewConnection() -> Bool {
        guard needsNewConnection, !isCancelled else { return false }
        needsNewConnection = false
        return (try? easy.set(CURLOPT_FRESH_CONNECT, 1)) != nil
    }

    fileprivate func progress(uploaded now: curl_off_t) {
        if now != uploaded {
            uploaded = now
            lastProgress = .now
        }
    }

    // MARK: Completion (loop thread)

    /// Ends the transfer with libcurl's result.
    func complete(code: CURLcode) {
        finish(outcome(code: code))
    }

    /// Ends the transfer with a failure found outside libcurl (idle timeout, a failed multi call, cancel).
    func complete(failing code: URLError.Code, _ failure: TransportFailure) {
        finish(.failure(URLError(code, failure: failure, url: url)))
    }

    func completeCancelled() {
        complete(failing: .cancelled, TransportFailure(library: "Reference", code: 0, message: "cancelled"))
    }

    private func outcome(code: CURLcode) -> Network.TransportOutcome {
        let head = heads.head
        // A 101 the request never asked for, then the end: the server left HTTP, and no response will come.
        if code != CURLE_OK, let head, head.status == 101, heads.isComplete {
            return .noHTTPResponse(makeResponse(head))
        }
        guard code == CURLE_OK else {
            let failure = TransferFailure(
                code: code, message: easy.message(for: code), stop: stop, verdict: trustVerdict,
                clientCertificate: clientCertificate, head: heads.head,
                socketError: easy.long(CURLINFO_OS_ERRNO) ?? 0, requestSent: (easy.long(CURLINFO_REQUEST_SIZE) ?? 0) > 0)
            return .failure(URLError(failure.urlErrorCode, failure: failure.transportFailure, url: url))
        }
        guard let head, heads.isComplete, head.status > 0 else {
            // The connection ended inside the head: nothing was answered, whatever the status line said.
            let message = head == nil ? "no response head" : "the connection ended before the response head did"
            return .failure(
                URLError(.networkConnectionLost, failure: TransportFailure(library: "Reference", code: 0, message: message), url: url))
        }
        return .response(makeResponse(head), body: body)
    }

    private func makeResponse(_ head: ResponseHead) -> HTTPURLResponse {
        var finalURL = url
        if let redirects = easy.long(CURLINFO_REDIRECT_COUNT), redirects > 0 {  // parsing a URL is not free: only a redirect changes it
            finalURL = easy.string(CURLINFO_EFFECTIVE_URL).flatMap(URL.init(string:)) ?? url
        }
        // The initializer fails only for a status outside 100...999, which a parsed head never has.
        return HTTPURLResponse(url: finalURL, statusCode: head.status, httpVersion: head.version, headerFields: head.mergedFields)!
    }

    private func finish(_ outcome: Network.TransportOutcome) {
        guard let completion else { return }
        self.completion = nil
        body = nil
        completion(outcome)
    }
}

/// A flag that is set once, atomically.
final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    /// Sets the flag; returns whether this call set it.
    func set() -> Bool { !flag.exchange(true, ordering: .acquiringAndReleasing) }
}

let curlBodyCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let pointer, let userdata else { return 0 }
    let length = size * count
    let accepted = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        .receiveBody(UnsafeRawBufferPointer(start: pointer, count: length))
    return accepted ? length : 0  // a short count makes libcurl abort with CURLE_WRITE_ERROR
}

let curlHeaderCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let pointer, let userdata else { return 0 }
    let length = size * count
    let accepted = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        .receiveHeaderLine(UnsafeRawBufferPointer(start: pointer, count: length))
    return accepted ? length : 0
}

let curlProgressCallback: curl_xferinfo_callback = { userdata, _, _, _, uploaded in
    guard let userdata else { return 0 }
    Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().progress(uploaded: uploaded)
    return 0
}
