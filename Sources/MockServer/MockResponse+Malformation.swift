import Foundation

extension MockResponse {
    /// A response that is broken in its own bytes: a status line, head or framing no correct server sends, or
    /// something other than a response in its place.
    ///
    /// A malformation belongs to the response rather than to a ``MockFault`` because it only means something where
    /// the response is sent; what happens to the *connection* (a close, a reset, a stall) is the fault's job, and
    /// the two compose. Each malformation keeps its documented end: those named `…ThenClose`, and most others,
    /// close the connection after the response, as a server that lost track of its own framing would.
    ///
    /// Each has an HTTP/1.1 form (the bytes on the wire) and an HTTP/2 form, the nearest way to break the same
    /// part of an HTTP/2 response; each member's documentation gives both.
    ///
    /// ```swift
    /// MockResponse(body: Data("hi".utf8), malformation: .http09Reply)
    /// MockResponse.malformed(.garbageThenClose(Data("NOT HTTP\r\n\r\n".utf8)))
    /// // The head without its blank line, then a reset rather than a close:
    /// MockResponse(malformation: .headWithoutBlankLineThenClose, fault: MockFault(.reset, .afterResponse))
    /// ```
    ///
    /// New malformations may be added; switch with a `default`.
    public struct Malformation: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable {
            case garbage(Data), http09Reply, missingStatus
            case malformedStatusLine, statusLineVersion(String), headWithoutBlankLine, oversizedHead(Int)
            case conflictingContentLength, malformedChunkSize, missingLastChunk, extraBytesBeyondContentLength(Data)
        }

        let base: Base
        private init(_ base: Base) { self.base = base }

        // MARK: Something else in place of the response

        /// Send these bytes instead of the response, then close (HTTP/2: the same bytes raw on the connection, where
        /// a frame header belongs, then close).
        ///
        /// For a reply a client must refuse as not HTTP at all, or to script a response byte by byte.
        public static func garbageThenClose(_ bytes: Data) -> Malformation { Malformation(.garbage(bytes)) }
        /// Send only the body, as an HTTP/0.9 "simple response", then close (HTTP/2: a `DATA` frame with the body
        /// before any `HEADERS`, then close). An empty body is sent as a line of text, so the client sees bytes.
        public static let http09Reply = Malformation(.http09Reply)
        /// Send the head without any status: its header fields, the blank line and the body, then close (HTTP/2:
        /// `HEADERS` that end the stream with `content-length: 0` and no `:status`, a malformed response the client
        /// refuses with a stream error while the connection lives on, RFC 9113 §8.1.1 and §8.3.2).
        public static let missingStatus = Malformation(.missingStatus)

        // MARK: A broken head

        /// Send a status code that is not three digits (`HTTP/1.1 2000 OK`), then the response, then close (HTTP/2:
        /// `:status: 2000`).
        public static let malformedStatusLine = Malformation(.malformedStatusLine)
        /// Send the status line with this version token in place of `HTTP/1.1` (`HTTP/2 200 OK`), framed as usual; the
        /// connection stays open, so the client decides whether to reuse it (HTTP/2 carries no version: the response
        /// goes out as it is).
        public static func statusLineVersion(_ version: String) -> Malformation { Malformation(.statusLineVersion(version)) }
        /// Send the status line and headers without the terminating blank line, then close (HTTP/2: `HEADERS` without
        /// `END_HEADERS`, then close), so the head never ends.
        public static let headWithoutBlankLineThenClose = Malformation(.headWithoutBlankLine)
        /// Pad the head with an `X-Oversized` header so that it is at least this many bytes, then close after the
        /// response (HTTP/2: an `x-oversized` field of about that many bytes), to test a client's head limit.
        public static func oversizedHead(_ size: Int) -> Malformation { Malformation(.oversizedHead(size)) }

        // MARK: Broken framing

        /// Send two `Content-Length` headers that disagree (the true length and one more), then close after the body
        /// (HTTP/2: two `content-length` fields that disagree).
        public static let conflictingContentLength = Malformation(.conflictingContentLength)
        /// Send the body chunked, with a first chunk-size line that is not hexadecimal, then close (HTTP/2, which has no
        /// chunks: a head, then a `DATA` frame longer than the client's largest frame size, then close).
        public static let malformedChunkSize = Malformation(.malformedChunkSize)
        /// Send the body chunked, without the terminating zero-size chunk, then close (HTTP/2: the body with no
        /// `content-length` and no `END_STREAM`, then close), so the end of the body is only the end of the connection.
        public static let missingLastChunkThenClose = Malformation(.missingLastChunk)
        /// Send these bytes after a body framed by `Content-Length`, as if they were part of it; the connection stays
        /// open (HTTP/2: `DATA` past the `content-length`, which makes the response malformed).
        public static func extraBytesBeyondContentLength(_ bytes: Data) -> Malformation {
            Malformation(.extraBytesBeyondContentLength(bytes))
        }

        /// Whether an HTTP/1.1 connection closes once the response is sent: its framing cannot be trusted any more.
        var closesConnection: Bool {
            switch base {
            case .statusLineVersion, .extraBytesBeyondContentLength: false
            default: true
            }
        }

        /// Whether the body goes out chunked whatever ``MockResponse/chunked`` says.
        var forcesChunked: Bool { self == .malformedChunkSize || self == .missingLastChunkThenClose }

        /// The malformation's stable name, the member that makes it (`http09Reply`, `garbageThenClose(5 bytes)`).
        public var description: String {
            switch base {
            case .garbage(let bytes): "garbageThenClose(\(bytes.count) bytes)"
            case .http09Reply: "http09Reply"
            case .missingStatus: "missingStatus"
            case .malformedStatusLine: "malformedStatusLine"
            case .statusLineVersion(let version): "statusLineVersion(\(version))"
            case .headWithoutBlankLine: "headWithoutBlankLineThenClose"
            case .oversizedHead(let size): "oversizedHead(\(size))"
            case .conflictingContentLength: "conflictingContentLength"
            case .malformedChunkSize: "malformedChunkSize"
            case .missingLastChunk: "missingLastChunkThenClose"
            case .extraBytesBeyondContentLength(let bytes): "extraBytesBeyondContentLength(\(bytes.count) bytes)"
            }
        }
    }
}
