internal import COpenSSL

/// The server's ALPN policy as the selection callback's argument (never 0, which is a null pointer).
enum ALPNChoice: Int {
    case http1 = 1, http2, both

    init(_ versions: MockServer.TLS.HTTPVersions) {
        switch versions.base {
        case .http1: self = .http1
        case .http2: self = .http2
        case .both: self = .both
        }
    }

    /// The protocol to select from the client's offer, in the server's order of preference; `nil`: none fits.
    func select(from offered: [String]) -> String? {
        let preference =
            switch self {
            case .http1: ["http/1.1"]
            case .http2: ["h2"]
            case .both: ["h2", "http/1.1"]
            }
        return preference.first { offered.contains($0) }
    }

    /// The client's ALPN offer: a list of length-prefixed names (RFC 7301 §3.1).
    static func parse(_ wire: UnsafeBufferPointer<UInt8>) -> [(name: String, offset: Int)] {
        var names: [(String, Int)] = []
        var offset = 0
        while offset < wire.count {
            let length = Int(wire[offset])
            guard length > 0, offset + 1 + length <= wire.count else { break }
            names.append((String(decoding: wire[(offset + 1)..<(offset + 1 + length)], as: UTF8.self), offset + 1))
            offset += 1 + length
        }
        return names
    }
}

/// OpenSSL's ALPN selection callback: picks from the client's offer by the server's ``ALPNChoice``.
///
/// An HTTP/2-only server refuses a client that offers no `h2` with a fatal `no_application_protocol` alert (RFC
/// 7301 §3.2); an HTTP/1.1 server just does not answer ALPN then, as servers that predate it.
let alpnSelect: SSL_CTX_alpn_select_cb_func = { _, out, outLength, offer, offerLength, arg in
    guard let out, let outLength, let offer, let choice = ALPNChoice(rawValue: Int(bitPattern: arg)) else {
        return SSL_TLSEXT_ERR_NOACK
    }
    let offered = ALPNChoice.parse(UnsafeBufferPointer(start: offer, count: Int(offerLength)))
    guard let selected = choice.select(from: offered.map(\.name)), let match = offered.first(where: { $0.name == selected }) else {
        return choice == .http2 ? SSL_TLSEXT_ERR_ALERT_FATAL : SSL_TLSEXT_ERR_NOACK
    }
    // The selection must point into memory that outlives the callback: the client's offer does.
    out.pointee = offer + match.offset
    outLength.pointee = UInt8(selected.utf8.count)
    return SSL_TLSEXT_ERR_OK
}
