import Foundation

/// Named faults for the pairs tests use most; each one is exactly the ``MockFault/init(_:_:)`` it documents.
extension MockFault {
    // MARK: At accept
    /// Accept the TCP connection, then close it (FIN) before reading or writing a byte: `(.close, .atAccept)`.
    public static let closeAtAccept = MockFault(.close, .atAccept)
    /// Accept the TCP connection, then reset it (RST): `(.reset, .atAccept)`.
    public static let resetAtAccept = MockFault(.reset, .atAccept)
    /// Accept the TCP connection, then neither read nor write until the client gives up: `(.stall, .atAccept)`.
    public static let stallAtAccept = MockFault(.stall, .atAccept)

    // MARK: After the ClientHello
    /// Read the client's first TLS record (its ClientHello), then close (FIN): `(.close, .afterClientHello)`.
    public static let closeAfterClientHello = MockFault(.close, .afterClientHello)
    /// Read the client's first TLS record, then reset (RST): `(.reset, .afterClientHello)`.
    public static let resetAfterClientHello = MockFault(.reset, .afterClientHello)
    /// Read the client's first TLS record, then never answer: `(.stall, .afterClientHello)`.
    public static let stallAfterClientHello = MockFault(.stall, .afterClientHello)
    /// Read the client's first TLS record, answer with a plain-text `HTTP/1.1 400` response, then close:
    /// `(.plaintextReply, .afterClientHello)`.
    public static let plaintextReplyToClientHello = MockFault(.plaintextReply, .afterClientHello)
    /// Read the client's first TLS record, answer with a TLS fatal alert, then close:
    /// `(.fatalAlert, .afterClientHello)`; see ``Effect/fatalAlert``.
    public static let fatalAlertAfterClientHello = MockFault(.fatalAlert, .afterClientHello)

    // MARK: Before each request
    /// Close (FIN) before reading the next request on the connection: `(.close, .beforeRequest)`.
    public static let closeBeforeReadingRequest = MockFault(.close, .beforeRequest)

    // MARK: While reading the request
    /// Read the request head and this many body bytes, then close (FIN) without answering:
    /// `(.close, .afterRequestBodyBytes(count))`.
    public static func closeAfterRequestBodyBytes(_ count: Int) -> MockFault { MockFault(.close, .afterRequestBodyBytes(count)) }
    /// Read the request head and this many body bytes, then reset (RST) without answering:
    /// `(.reset, .afterRequestBodyBytes(count))`.
    public static func resetAfterRequestBodyBytes(_ count: Int) -> MockFault { MockFault(.reset, .afterRequestBodyBytes(count)) }
    /// Answer right after the request head, without sending `100 Continue` or reading the body, then close:
    /// `(.respond, .afterRequestHead)`.
    public static let answerWithoutReadingBody = MockFault(.respond, .afterRequestHead)

    // MARK: Instead of the response
    /// Read the whole request, then never answer: `(.stall, .afterRequest)`.
    public static let stallAfterRequest = MockFault(.stall, .afterRequest)
    /// Read the whole request, then close (FIN) without a byte of response: `(.close, .afterRequest)`.
    public static let closeWithNoReply = MockFault(.close, .afterRequest)
    /// Read the whole request, then reset (RST) without a byte of response: `(.reset, .afterRequest)`.
    public static let resetWithNoReply = MockFault(.reset, .afterRequest)

    // MARK: While answering
    /// Send the head and this many bytes of the (encoded) body, then close (FIN):
    /// `(.close, .afterResponseBodyBytes(count))`.
    public static func closeAfterBodyBytes(_ count: Int) -> MockFault { MockFault(.close, .afterResponseBodyBytes(count)) }
    /// Send the head and this many bytes of the (encoded) body, then reset (RST):
    /// `(.reset, .afterResponseBodyBytes(count))`.
    public static func resetAfterBodyBytes(_ count: Int) -> MockFault { MockFault(.reset, .afterResponseBodyBytes(count)) }
    /// Send the head and this many bytes of the (encoded) body, then never send more:
    /// `(.stall, .afterResponseBodyBytes(count))`.
    public static func stallAfterBodyBytes(_ count: Int) -> MockFault { MockFault(.stall, .afterResponseBodyBytes(count)) }
    /// Send the response, then close without a TLS `close_notify` alert (plain HTTP: a normal close):
    /// `(.closeWithoutCloseNotify, .afterResponse)`.
    public static let closeWithoutCloseNotify = MockFault(.closeWithoutCloseNotify, .afterResponse)
    /// Send the response (keep-alive: no `Connection: close`), then close as an idle server does, counting any bytes
    /// the client still sends: `(.closeIdle, .afterResponse)`.
    public static let closeIdleAfterResponse = MockFault(.closeIdle, .afterResponse)

    /// The name of the shortcut equal to this fault, if there is one.
    var shortcutName: String? {
        switch (effect.base, trigger.base) {
        case (.close, .atAccept): "closeAtAccept"
        case (.reset, .atAccept): "resetAtAccept"
        case (.stall, .atAccept): "stallAtAccept"
        case (.close, .afterClientHello): "closeAfterClientHello"
        case (.reset, .afterClientHello): "resetAfterClientHello"
        case (.stall, .afterClientHello): "stallAfterClientHello"
        case (.plaintextReply, .afterClientHello): "plaintextReplyToClientHello"
        case (.fatalAlert, .afterClientHello): "fatalAlertAfterClientHello"
        case (.close, .beforeRequest): "closeBeforeReadingRequest"
        case (.close, .afterRequestBodyBytes(let count)): "closeAfterRequestBodyBytes(\(count))"
        case (.reset, .afterRequestBodyBytes(let count)): "resetAfterRequestBodyBytes(\(count))"
        case (.respond, .afterRequestHead): "answerWithoutReadingBody"
        case (.stall, .afterRequest): "stallAfterRequest"
        case (.close, .afterRequest): "closeWithNoReply"
        case (.reset, .afterRequest): "resetWithNoReply"
        case (.close, .afterResponseBodyBytes(let count)): "closeAfterBodyBytes(\(count))"
        case (.reset, .afterResponseBodyBytes(let count)): "resetAfterBodyBytes(\(count))"
        case (.stall, .afterResponseBodyBytes(let count)): "stallAfterBodyBytes(\(count))"
        case (.closeWithoutCloseNotify, .afterResponse): "closeWithoutCloseNotify"
        case (.closeIdle, .afterResponse): "closeIdleAfterResponse"
        default: nil
        }
    }
}
