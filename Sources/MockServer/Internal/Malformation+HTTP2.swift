import Foundation

/// Each malformation in its HTTP/2 form: the nearest way to break the same part of an HTTP/2 response.
extension MockResponse.Malformation {
    /// The frames of a malformation that breaks HTTP/2's own framing, written raw because nghttp2 would not send
    /// them, and whether the connection closes after them; `nil` for the malformations that only bend the fields or
    /// the body of a well-framed response (``bend(_:_:_:_:)``).
    func rawHTTP2Frames(_ response: MockResponse, stream: Int32) -> (bytes: [UInt8], thenClose: Bool)? {
        switch base {
        case .garbage(let bytes):
            (Array(bytes), true)
        case .http09Reply:
            // A body before any head.
            (
                Self.frame(
                    type: 0x0, flags: 0x1, stream: stream, payload: Array(response.body.isEmpty ? Data("simple".utf8) : response.body)),
                true
            )
        case .missingStatus:
            // END_STREAM | END_HEADERS; `content-length: 0` as a literal with the static table's name 28 (RFC 7541
            // §6.2.2), without indexing, so the client's HPACK table stays in step with nghttp2's.
            (Self.frame(type: 0x1, flags: 0x5, stream: stream, payload: [0x0F, 0x0D, 0x01, 0x30]), false)
        case .headWithoutBlankLine:
            // `:status: 200` (static index 8), without END_HEADERS: a head that never ends.
            (Self.frame(type: 0x1, flags: 0, stream: stream, payload: [0x88]), true)
        case .malformedChunkSize:
            // A well-formed head (`:status: 200`, static index 8, END_HEADERS), then a DATA frame one byte past the
            // client's largest frame size (16 384 until it says otherwise): only the frame's size is wrong, so a
            // client that refuses it refuses it for its size, not for DATA before any head.
            (
                Self.frame(type: 0x1, flags: 0x4, stream: stream, payload: [0x88])
                    + Self.frame(type: 0x0, flags: 0, stream: stream, payload: Array(repeating: 0x61, count: 16_385)),
                true
            )
        default:
            nil
        }
    }

    /// Bends a response HTTP/2 can still frame: a `:status` that is not three digits, two `content-length` fields
    /// that disagree, a padded head, bytes past the `content-length`, a body of no announced length whose stream
    /// never ends (`cut` holds it open, then the close). A status line's version has no HTTP/2 form: the response
    /// goes out as it is.
    func bend(_ fields: inout [(name: String, value: String)], _ bytes: inout [UInt8], _ cut: inout Int?, _ response: MockResponse) {
        switch base {
        case .malformedStatusLine:
            fields[0].value += "0"
        case .conflictingContentLength:
            fields.removeAll { $0.name == "content-length" }
            fields += [("content-length", String(response.body.count)), ("content-length", String(response.body.count + 1))]
        case .oversizedHead(let size):
            let used = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
            fields.append(("x-oversized", String(repeating: "a", count: max(0, size - used - "x-oversized".utf8.count))))
        case .extraBytesBeyondContentLength(let extra):
            bytes += Array(extra)
        case .missingLastChunk:
            // As a chunked body, no length is announced: only the stream's end could say the body is whole.
            fields.removeAll { $0.name == "content-length" }
            cut = min(cut ?? bytes.count, bytes.count)
        default:
            break
        }
    }

    private static func frame(type: UInt8, flags: UInt8, stream: Int32, payload: [UInt8]) -> [UInt8] {
        HTTP2Violation.frame(type: type, flags: flags, stream: stream, payload: payload)
    }
}
