import Foundation

extension MockFault {
    /// What a fault does: end the connection in some way, or bend the response it rides on.
    ///
    /// New effects may be added; switch with a `default`.
    public struct Effect: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable {
            case close, reset, stall, closeWithoutCloseNotify
            case respond, plaintextReply, fatalAlert, garbage(Data)
            case http09Reply, malformedStatusLine, headWithoutBlankLine, oversizedHead(Int), conflictingContentLength
            case malformedChunkSize, missingLastChunk, extraBytesBeyondContentLength(Data), statusLineVersion(String)
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
        /// Neither read nor write again, until the client gives up or the server shuts down.
        public static let stall = Effect(.stall)
        /// Close (FIN) without a TLS `close_notify` alert, even between messages (plain HTTP: a normal close).
        public static let closeWithoutCloseNotify = Effect(.closeWithoutCloseNotify)

        // MARK: Answering out of turn
        /// Send the scripted response now (before the request body, say), then close.
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
        /// Send these bytes instead of a response, then close.
        public static func garbage(_ bytes: Data) -> Effect { Effect(.garbage(bytes)) }

        // MARK: Bending the response
        // Each has an HTTP/2 form, the nearest way to break the same part of an HTTP/2 response.

        /// Send only the body, as an HTTP/0.9 "simple response", then close (HTTP/2: a `DATA` frame with the body
        /// before any `HEADERS`, then close).
        public static let http09Reply = Effect(.http09Reply)
        /// Send a status line whose code is not three digits (`HTTP/1.1 2000 OK`), then the response, then close
        /// (HTTP/2: `:status: 2000`).
        public static let malformedStatusLine = Effect(.malformedStatusLine)
        /// Send the status line and headers without the terminating blank line, then close (HTTP/2: `HEADERS` without
        /// `END_HEADERS`, then close).
        public static let headWithoutBlankLine = Effect(.headWithoutBlankLine)
        /// Pad the response head with a header so the head is at least this many bytes, then close after the response
        /// (HTTP/2: an `x-oversized` field of about that many bytes).
        public static func oversizedHead(_ size: Int) -> Effect { Effect(.oversizedHead(size)) }
        /// Send two `Content-Length` headers that disagree (the true length and one more), then close after the body
        /// (HTTP/2: two `content-length` fields that disagree).
        public static let conflictingContentLength = Effect(.conflictingContentLength)
        /// Send a chunked body whose first chunk-size line is not hexadecimal, then close (HTTP/2, which has no chunks:
        /// a `DATA` frame longer than the client's largest frame size, then close).
        public static let malformedChunkSize = Effect(.malformedChunkSize)
        /// Send a chunked body without the terminating zero-size chunk, then close (HTTP/2: the body with no
        /// `content-length` and no `END_STREAM`, then close).
        public static let missingLastChunk = Effect(.missingLastChunk)
        /// Send these bytes after a body framed by `Content-Length`, as if they were part of it; the connection stays open
        /// (HTTP/2: `DATA` past the `content-length`, which makes the response malformed).
        public static func extraBytesBeyondContentLength(_ bytes: Data) -> Effect { Effect(.extraBytesBeyondContentLength(bytes)) }
        /// Send the status line with this version token in place of `HTTP/1.1` (`HTTP/2 200 OK`), framed as usual; the
        /// connection stays open, so the client decides whether to reuse it (HTTP/2 carries no version: the response
        /// goes out as it is).
        public static func statusLineVersion(_ version: String) -> Effect { Effect(.statusLineVersion(version)) }

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
        /// client leaves (HTTP/1.1: the same bytes, then close, as ``garbage(_:)``).
        public static func http2Violation(_ violation: HTTP2Violation) -> Effect { Effect(.http2Violation(violation)) }

        /// Whether the effect ends the exchange by itself, rather than shaping the response that is sent.
        var endsExchange: Bool {
            switch base {
            case .close, .reset, .stall, .closeWithoutCloseNotify, .plaintextReply, .fatalAlert, .garbage: true
            case .resetStream, .goAway, .zeroWindow, .http2Violation: true
            default: false
            }
        }

        /// Whether the effect bends the bytes of an HTTP/1.1 message (a status line, framing, raw bytes in place of
        /// a response), and so means something else, or nothing, on an HTTP/2 stream.
        package var shapesHTTP1Message: Bool {
            switch base {
            case .http09Reply, .malformedStatusLine, .headWithoutBlankLine, .oversizedHead, .conflictingContentLength,
                .malformedChunkSize, .missingLastChunk, .extraBytesBeyondContentLength, .statusLineVersion, .garbage:
                true
            default: false
            }
        }

        /// The effect's stable name (`close`, `garbage(5 bytes)`, `oversizedHead(20000)`).
        public var description: String {
            switch base {
            case .close: "close"
            case .reset: "reset"
            case .stall: "stall"
            case .closeWithoutCloseNotify: "closeWithoutCloseNotify"
            case .respond: "respond"
            case .plaintextReply: "plaintextReply"
            case .fatalAlert: "fatalAlert"
            case .garbage(let bytes): "garbage(\(bytes.count) bytes)"
            case .http09Reply: "http09Reply"
            case .malformedStatusLine: "malformedStatusLine"
            case .headWithoutBlankLine: "headWithoutBlankLine"
            case .oversizedHead(let size): "oversizedHead(\(size))"
            case .conflictingContentLength: "conflictingContentLength"
            case .malformedChunkSize: "malformedChunkSize"
            case .missingLastChunk: "missingLastChunk"
            case .extraBytesBeyondContentLength(let bytes): "extraBytesBeyondContentLength(\(bytes.count) bytes)"
            case .statusLineVersion(let version): "statusLineVersion(\(version))"
            case .resetStream(let code): "resetStream(\(code))"
            case .goAway(let last, let code): "goAway(\(last.map(String.init) ?? "previous"), \(code))"
            case .zeroWindow: "zeroWindow"
            case .http2Violation(let violation): "http2Violation(\(violation))"
            }
        }
    }
}
