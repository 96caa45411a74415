import Foundation

/// A transport-level misbehaviour: *what* the server does wrong and *when*, scoped to one scripted ``MockResponse``.
///
/// Because a fault rides on the response it is attached to, "fail the second attempt" is two enqueued
/// responses, and "fail every connection" is a dispatcher that always returns the faulty response.
///
/// Faults fire at one of four moments:
/// - **At accept** and **after ClientHello** (`…AtAccept`, `…AfterClientHello`, ``plaintextReplyToClientHello``,
///   ``fatalAlertAfterClientHello``):
///   no request exists yet, so when a connection is accepted the server looks at the **next scripted response**
///   (the queue's head, or ``MockDispatcher``'s `connectionFault` closure). If that response carries one of these
///   faults, it is consumed by the connection and the fault fires; otherwise it stays queued for a request.
///   On a plain-HTTP server the ClientHello faults fire after the first bytes the client sends.
///   A response that reaches a request instead (queued behind it on a reused connection, or returned by a
///   dispatcher) performs the nearest effect at response time: close, reset or stall with no reply.
/// - **Before reading a request** (``closeBeforeReadingRequest``): checked the same way before each request on a
///   connection, so it can hit a reused keep-alive connection.
/// - **While reading the request body** (`…AfterRequestBodyBytes`, ``answerWithoutReadingBody``).
/// - **While answering** (all the others).
///
/// "Stall" faults hold the connection open without sending anything until the client closes it or the server
/// shuts down; they never sleep for a fixed time. "Reset" faults send a TCP RST (`SO_LINGER {1, 0}` then `close`).
public enum MockFault: Sendable, Hashable {
    // MARK: At accept (taken from the next scripted response)
    /// Accept the TCP connection, then close it (FIN) before reading or writing a byte.
    case closeAtAccept
    /// Accept the TCP connection, then reset it (RST).
    case resetAtAccept
    /// Accept the TCP connection, then neither read nor write until the client gives up.
    case stallAtAccept

    // MARK: After the ClientHello (taken from the next scripted response)
    /// Read the client's first TLS record (its ClientHello), then close (FIN).
    case closeAfterClientHello
    /// Read the client's first TLS record, then reset (RST).
    case resetAfterClientHello
    /// Read the client's first TLS record, then never answer.
    case stallAfterClientHello
    /// Read the client's first TLS record, answer with a plain-text `HTTP/1.1 400` response, then close.
    case plaintextReplyToClientHello
    /// Read the client's first TLS record, answer with a TLS fatal alert record, `handshake_failure` (40), then close
    /// (FIN, no `close_notify`).
    ///
    /// The alert is written as raw bytes, outside OpenSSL: `15 03 03 00 02 02 28` (content type alert, record version
    /// TLS 1.2, length 2, level fatal, description 40). A TLS client fails the handshake and names the alert
    /// (OpenSSL: `sslv3 alert handshake failure`). On a plain-HTTP server the same seven bytes answer the request.
    case fatalAlertAfterClientHello

    // MARK: Before each request
    /// Close (FIN) before reading the next request on the connection (after the handshake on a new one).
    case closeBeforeReadingRequest

    // MARK: While reading the request
    /// Read the request head and this many body bytes, then close (FIN) without answering.
    case closeAfterRequestBodyBytes(Int)
    /// Read the request head and this many body bytes, then reset (RST) without answering.
    case resetAfterRequestBodyBytes(Int)
    /// Answer right after the request head, without sending `100 Continue` or reading the body, then close.
    case answerWithoutReadingBody

    // MARK: While answering
    /// Read the whole request, then never answer.
    case stallAfterRequest
    /// Read the whole request, then close (FIN) without a byte of response.
    case closeWithNoReply
    /// Read the whole request, then reset (RST) without a byte of response.
    case resetWithNoReply
    /// Send these bytes instead of a response, then close.
    case garbageThenClose(Data)
    /// Send only the body, as an HTTP/0.9 "simple response", then close.
    case http09Reply
    /// Send a status line whose code is not three digits (`HTTP/1.1 2000 OK`), then the response, then close.
    case malformedStatusLine
    /// Send the status line and headers without the terminating blank line, then close.
    case headWithoutBlankLineThenClose
    /// Pad the response head with a header so the head is at least this many bytes, then close after the response.
    case oversizedHead(Int)
    /// Send two `Content-Length` headers that disagree (the true length and one more), then close after the body.
    case conflictingContentLength
    /// Send the head and this many bytes of the (encoded) body, then close (FIN).
    case closeAfterBodyBytes(Int)
    /// Send the head and this many bytes of the (encoded) body, then reset (RST).
    case resetAfterBodyBytes(Int)
    /// Send the head and this many bytes of the (encoded) body, then never send more.
    case stallAfterBodyBytes(Int)
    /// Send a chunked body whose first chunk-size line is not hexadecimal, then close.
    case malformedChunkSize
    /// Send a chunked body without the terminating zero-size chunk, then close.
    case missingLastChunkThenClose
    /// Send these bytes after a body framed by `Content-Length`, as if they were part of it; the connection stays open.
    case extraBytesBeyondContentLength(Data)
    /// Send the response, then close the TCP connection without a TLS `close_notify` alert (plain HTTP: a normal close).
    case closeWithoutCloseNotify
}

extension MockFault {
    /// When the fault fires; decides which scripted response a connection consumes before any request exists.
    enum Phase: Sendable { case accept, clientHello, beforeRequest, requestBody, response }

    var phase: Phase {
        switch self {
        case .closeAtAccept, .resetAtAccept, .stallAtAccept: .accept
        case .closeAfterClientHello, .resetAfterClientHello, .stallAfterClientHello, .plaintextReplyToClientHello,
             .fatalAlertAfterClientHello: .clientHello
        case .closeBeforeReadingRequest: .beforeRequest
        case .closeAfterRequestBodyBytes, .resetAfterRequestBodyBytes, .answerWithoutReadingBody: .requestBody
        default: .response
        }
    }
}
