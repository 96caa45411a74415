extension MockFault {
    /// When a fault fires, from the accepted TCP connection to the end of the response.
    ///
    /// New triggers may be added; switch with a `default`.
    public struct Trigger: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable {
            case atAccept, afterClientHello, beforeRequest
            case afterRequestHead, afterRequestBodyBytes(Int), afterRequest
            case afterResponseBodyBytes(Int), afterResponse
        }

        let base: Base
        private init(_ base: Base) { self.base = base }

        // MARK: Before any request (taken from the next scripted response)
        /// As soon as the TCP connection is accepted, before reading or writing a byte.
        public static let atAccept = Trigger(.atAccept)
        /// Once the client's first TLS record (its ClientHello) was read, before OpenSSL sees it.
        public static let afterClientHello = Trigger(.afterClientHello)
        /// Before reading the next request on the connection (after the handshake on a new one), once its first
        /// bytes arrived, so that it can hit a reused keep-alive connection.
        public static let beforeRequest = Trigger(.beforeRequest)

        // MARK: While reading the request
        /// Once the request head was read: before `100 Continue` and before any body byte.
        public static let afterRequestHead = Trigger(.afterRequestHead)
        /// Once the request head and this many body bytes were read (after `100 Continue` when asked for).
        public static func afterRequestBodyBytes(_ count: Int) -> Trigger { Trigger(.afterRequestBodyBytes(max(0, count))) }
        /// Once the whole request was read, instead of the response.
        public static let afterRequest = Trigger(.afterRequest)

        // MARK: While answering
        /// Once the response head was sent: ``afterResponseBodyBytes(_:)`` with zero bytes.
        public static var afterResponseHead: Trigger { .afterResponseBodyBytes(0) }
        /// Once the response head and this many bytes of the (encoded) body were sent.
        public static func afterResponseBodyBytes(_ count: Int) -> Trigger { Trigger(.afterResponseBodyBytes(max(0, count))) }
        /// Once the whole response was sent.
        public static let afterResponse = Trigger(.afterResponse)

        /// Whether the trigger fires before ALPN chose a protocol (at accept, or on the ClientHello), so that what
        /// it does is the same whichever HTTP version would have followed.
        package var precedesApplicationProtocol: Bool {
            switch base {
            case .atAccept, .afterClientHello: true
            default: false
            }
        }

        /// Whether the trigger's moment comes before the response is written.
        var precedesResponse: Bool {
            switch base {
            case .afterResponseBodyBytes, .afterResponse: false
            default: true
            }
        }

        /// The trigger's stable name (`atAccept`, `afterRequestBodyBytes(3)`).
        public var description: String {
            switch base {
            case .atAccept: "atAccept"
            case .afterClientHello: "afterClientHello"
            case .beforeRequest: "beforeRequest"
            case .afterRequestHead: "afterRequestHead"
            case .afterRequestBodyBytes(let count): "afterRequestBodyBytes(\(count))"
            case .afterRequest: "afterRequest"
            case .afterResponseBodyBytes(let count): "afterResponseBodyBytes(\(count))"
            case .afterResponse: "afterResponse"
            }
        }
    }
}
