import Foundation

extension MockFault {
    /// What a fault does to the connection: end it in some way, hold it, answer out of turn, or, on HTTP/2, act on
    /// the stream or the session.
    ///
    /// Every effect means something at every ``Trigger``, with one exception: ``respond`` (see there). An effect
    /// that fires before ALPN chose a protocol acts as it does on HTTP/1.1. To break the response itself rather
    /// than the connection, give the response a ``MockResponse/Malformation``.
    ///
    /// New effects may be added; switch with a `default`.
    public struct Effect: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable {
            case close, reset, stall, closeWithoutCloseNotify, closeIdle, awaitClientClose
            case respond, plaintextReply, fatalAlert
            case resetStream(HTTP2ErrorCode), goAway(lastStreamID: Int?, code: HTTP2ErrorCode), zeroWindow
            case http2Violation(HTTP2Violation)
        }

        let base: Base
        private init(_ base: Base) { self.base = base }

        // MARK: Ending the connection
        /// Close the connection (FIN).
        public static let close = Effect(.close)
        /// Reset the connection (RST).
        public static let reset = Effect(.reset)
        /// Neither read nor write again, until the client gives up or the server shuts down. On HTTP/2 the stream
        /// is held, not the connection: its response (or the rest of it) never comes, and the connection's other
        /// streams are served.
        public static let stall = Effect(.stall)
        /// Close (FIN) without a TLS `close_notify` alert, even between messages (plain HTTP: a normal close).
        public static let closeWithoutCloseNotify = Effect(.closeWithoutCloseNotify)
        /// Close as a server whose keep-alive timeout ran out: `close_notify` and FIN, then go on reading until the
        /// client closes its side (at most 10 seconds), counting what still arrives in
        /// ``ConnectionRecord/bytesAfterClose``: a request a client sent into a connection it took for alive. On
        /// HTTP/2 the same, after the session's streams are done.
        public static let closeIdle = Effect(.closeIdle)
        /// Close no more: the connection ends when the client closes it (or at shutdown), as a server that told the
        /// client to go and waits for it. After a response with ``MockResponse/closeConnection`` (HTTP/1.1's
        /// `Connection: close`, HTTP/2's graceful `GOAWAY` with the response) it shows whether the client leaves by
        /// itself: ``ConnectionRecord/closedBy`` is then `.client`. Over HTTP/1.1 nothing more is answered; over
        /// HTTP/2 the connection's other streams are still served. Fired before its response, the response never comes.
        public static let awaitClientClose = Effect(.awaitClientClose)

        // MARK: Answering out of turn
        /// Send the scripted response now, before the request was read to its end, then close: the server that
        /// answers an upload it does not want (a `401`, a `413`) without waiting for it.
        ///
        /// It anticipates the response only while the request is read (``Trigger/afterRequestHead``,
        /// ``Trigger/afterRequestBodyBytes(_:)``). It has no meaning at the other triggers: before a request exists
        /// there is no response to send, and the connection closes, as for ``close``; at ``Trigger/afterRequest`` and
        /// later the response goes out as scripted, as if there were no fault.
        public static let respond = Effect(.respond)
        /// Answer with a plain-text `HTTP/1.1 400` response, written raw on the socket (outside TLS), then close.
        public static let plaintextReply = Effect(.plaintextReply)
        /// Send a TLS fatal alert record, `handshake_failure` (40), raw on the socket, then close (FIN, no
        /// `close_notify`).
        ///
        /// The alert is written as raw bytes, outside OpenSSL: `15 03 03 00 02 02 28` (content type alert, record
        /// version TLS 1.2, length 2, level fatal, description 40). A TLS client in its handshake fails it and
        /// names the alert (OpenSSL: `sslv3 alert handshake failure`). On a plain-HTTP server the same seven
        /// bytes answer the request.
        public static let fatalAlert = Effect(.fatalAlert)

        // MARK: HTTP/2
        // Each has a meaning on an HTTP/1.1 connection too, its nearest equivalent there, so no pair is void.

        /// Reset the request's stream with `RST_STREAM` and this code, and go on serving the connection (HTTP/1.1:
        /// reset the connection). ``HTTP2ErrorCode/refusedStream`` tells the client the request was not processed.
        public static func resetStream(_ code: HTTP2ErrorCode) -> Effect { Effect(.resetStream(code)) }
        /// Send `GOAWAY` with this code and last-stream-id (HTTP/1.1: close). `nil` names the stream before the
        /// request's own, so the request is provably not processed (RFC 9113 §6.8); before any request, `nil` is 0.
        /// A graceful `GOAWAY` (`NO_ERROR`) that counts the request's stream as processed, sent with or inside its
        /// response, lets that response finish, then closes; any other closes at once (a client that multiplexes
        /// loses its other streams then).
        public static func goAway(lastStreamID: Int? = nil, _ code: HTTP2ErrorCode = .noError) -> Effect {
            Effect(.goAway(lastStreamID: lastStreamID, code: code))
        }
        /// Announce `SETTINGS_INITIAL_WINDOW_SIZE` 0 and never grant window again, so the client cannot send another
        /// body byte (HTTP/1.1: stop reading, as ``stall``).
        public static let zeroWindow = Effect(.zeroWindow)
        /// Write a frame that breaks the protocol, which nghttp2 would refuse to produce, and go on reading until the
        /// client leaves (HTTP/1.1: the same bytes, then close, as ``MockResponse/Malformation/garbageThenClose(_:)``).
        public static func http2Violation(_ violation: HTTP2Violation) -> Effect { Effect(.http2Violation(violation)) }

        /// Whether the effect ends the exchange by itself: every one but ``respond``, which sends the response.
        var endsExchange: Bool { self != .respond }

        /// The effect's stable name (`close`, `resetStream(refusedStream)`).
        public var description: String {
            switch base {
            case .close: "close"
            case .reset: "reset"
            case .stall: "stall"
            case .closeWithoutCloseNotify: "closeWithoutCloseNotify"
            case .closeIdle: "closeIdle"
            case .awaitClientClose: "awaitClientClose"
            case .respond: "respond"
            case .plaintextReply: "plaintextReply"
            case .fatalAlert: "fatalAlert"
            case .resetStream(let code): "resetStream(\(code))"
            case .goAway(let last, let code): "goAway(\(last.map(String.init) ?? "previous"), \(code))"
            case .zeroWindow: "zeroWindow"
            case .http2Violation(let violation): "http2Violation(\(violation))"
            }
        }
    }
}
