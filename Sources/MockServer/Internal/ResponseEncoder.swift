import Foundation

/// Turns a scripted response into wire bytes, bending the framing when its fault asks for it.
///
/// Pure, so the byte-level shape of each fault is testable without a socket.
enum ResponseEncoder {
    struct Encoded: Sendable, Equatable {
        var head: [UInt8]
        var body: [UInt8]
        /// The fault leaves the connection unusable (or says so), so the server must close after writing.
        var mustClose: Bool
    }

    static func encode(_ response: MockResponse, forHeadRequest isHead: Bool = false) -> Encoded {
        let effect = response.fault?.effect
        if effect == .http09Reply {
            let body = response.body.isEmpty ? Array("HTTP/0.9 simple response\n".utf8) : Array(response.body)
            return Encoded(head: [], body: body, mustClose: true)
        }

        let chunked = response.chunked != nil || effect == .malformedChunkSize || effect == .missingLastChunk
        var fields = response.headers
        let hasFraming = fields.contains { isField($0.name, "content-length") || isField($0.name, "transfer-encoding") }
        let bodyless = (100..<200).contains(response.status) || response.status == 204 || response.status == 304
        if !hasFraming, !bodyless, !response.closeDelimited {
            if chunked {
                fields.append((name: "Transfer-Encoding", value: "chunked"))
            } else if effect == .conflictingContentLength {
                fields.append((name: "Content-Length", value: String(response.body.count)))
                fields.append((name: "Content-Length", value: String(response.body.count + 1)))
            } else {
                fields.append((name: "Content-Length", value: String(response.body.count)))
            }
        }
        if response.closeConnection, !fields.contains(where: { isField($0.name, "connection") }) {
            fields.append((name: "Connection", value: "close"))
        }

        let code = effect == .malformedStatusLine ? "\(response.status)0" : String(response.status)
        var version = "HTTP/1.1"
        if case .statusLineVersion(let token)? = effect?.base { version = token }
        var head = "\(version) \(code) \(response.reason)\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        if case .oversizedHead(let size)? = effect?.base {
            let padding = max(0, size - head.utf8.count - "X-Oversized: \r\n\r\n".utf8.count)
            head += "X-Oversized: \(String(repeating: "a", count: padding))\r\n"
        }
        var headBytes = response.informational.flatMap(interimHead) + Array(head.utf8)
        if effect != .headWithoutBlankLine { headBytes += Array("\r\n".utf8) }

        var body: [UInt8] = []
        if effect != .headWithoutBlankLine, !isHead, !bodyless {
            body = chunked ? chunkedBody(response) : Array(response.body)
            if case .extraBytesBeyondContentLength(let extra)? = effect?.base { body += Array(extra) }
        }

        let mustClose: Bool
        switch effect?.base {
        case .malformedStatusLine?, .headWithoutBlankLine?, .oversizedHead?, .conflictingContentLength?,
            .malformedChunkSize?, .missingLastChunk?, .closeWithoutCloseNotify?:
            mustClose = true
        default:
            mustClose = response.closeConnection || response.closeDelimited
        }
        return Encoded(head: headBytes, body: body, mustClose: mustClose)
    }

    private static func interimHead(_ response: MockResponse) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    static func chunkedBody(_ response: MockResponse) -> [UInt8] {
        let sizes = (response.chunked ?? []).filter { $0 > 0 }
        let bytes = Array(response.body)
        var wire: [UInt8] = []
        var offset = 0
        var sizeIndex = 0
        var first = true
        while offset < bytes.count {
            let size = min(sizes.isEmpty ? bytes.count : sizes[min(sizeIndex, sizes.count - 1)], bytes.count - offset)
            let sizeLine = first && response.fault?.effect == .malformedChunkSize ? "zz" : String(size, radix: 16)
            wire += Array("\(sizeLine)\r\n".utf8)
            wire += bytes[offset..<offset + size]
            wire += Array("\r\n".utf8)
            offset += size
            sizeIndex += 1
            first = false
        }
        if bytes.isEmpty, response.fault?.effect == .malformedChunkSize { wire += Array("zz\r\n".utf8) }
        if response.fault?.effect != .missingLastChunk { wire += Array("0\r\n\r\n".utf8) }
        return wire
    }

    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    static let plaintextReply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    /// A TLS alert record: type 21 (alert), version 3.3, length 2, level 2 (fatal), description 40 (handshake_failure).
    static let handshakeFailureAlert: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]

    static func badRequest(_ reason: String) -> MockResponse {
        MockResponse(
            status: 400, headers: [(name: "Content-Type", value: "text/plain")],
            body: Data("\(reason)\n".utf8), closeConnection: true)
    }

    static func contentTooLarge(_ reason: String) -> MockResponse {
        MockResponse(
            status: 413, headers: [(name: "Content-Type", value: "text/plain")],
            body: Data("\(reason)\n".utf8), closeConnection: true)
    }

    private static func isField(_ name: String, _ lowercased: String) -> Bool { name.lowercased() == lowercased }
}
