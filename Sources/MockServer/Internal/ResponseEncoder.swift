import Foundation

/// Turns a scripted response into wire bytes, in the shape its ``MockResponse/Malformation`` asks for.
///
/// Pure, so the byte-level shape of each malformation is testable without a socket. Faults play no part here:
/// they act on the connection around these bytes.
enum ResponseEncoder {
    struct Encoded: Sendable, Equatable {
        var head: [UInt8]
        var body: [UInt8]
        /// The response leaves the connection unusable (or says so), so the server must close after writing.
        var mustClose: Bool
    }

    static func encode(_ response: MockResponse, forHeadRequest isHead: Bool = false) -> Encoded {
        let malformation = response.malformation?.base
        switch malformation {
        case .garbage(let bytes)?:
            return Encoded(head: [], body: Array(bytes), mustClose: true)
        case .http09Reply?:
            let body = response.body.isEmpty ? Array("HTTP/0.9 simple response\n".utf8) : Array(response.body)
            return Encoded(head: [], body: body, mustClose: true)
        default:
            break
        }

        let chunked = response.chunked != nil || response.malformation?.forcesChunked == true
        var fields = response.headers
        let hasFraming = fields.contains { isField($0.name, "content-length") || isField($0.name, "transfer-encoding") }
        let bodyless = (100..<200).contains(response.status) || response.status == 204 || response.status == 304
        if !hasFraming, !bodyless, !response.closeDelimited {
            if chunked {
                fields.append((name: "Transfer-Encoding", value: "chunked"))
            } else if malformation == .conflictingContentLength {
                fields.append((name: "Content-Length", value: String(response.body.count)))
                fields.append((name: "Content-Length", value: String(response.body.count + 1)))
            } else {
                fields.append((name: "Content-Length", value: String(response.body.count)))
            }
        }
        if response.closeConnection, !fields.contains(where: { isField($0.name, "connection") }) {
            fields.append((name: "Connection", value: "close"))
        }

        var head = statusLine(response)
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        if case .oversizedHead(let size)? = malformation {
            let padding = max(0, size - head.utf8.count - "X-Oversized: \r\n\r\n".utf8.count)
            head += "X-Oversized: \(String(repeating: "a", count: padding))\r\n"
        }
        var headBytes = response.informational.flatMap(interimHead) + Array(head.utf8)
        if malformation != .headWithoutBlankLine { headBytes += Array("\r\n".utf8) }

        var body: [UInt8] = []
        if malformation != .headWithoutBlankLine, !isHead, !bodyless {
            body = chunked ? chunkedBody(response) : Array(response.body)
            if case .extraBytesBeyondContentLength(let extra)? = malformation { body += Array(extra) }
        }
        let mustClose = response.malformation?.closesConnection == true || response.closeConnection || response.closeDelimited
        return Encoded(head: headBytes, body: body, mustClose: mustClose)
    }

    /// The status line, bent as the malformation asks; none at all for `missingStatus`.
    private static func statusLine(_ response: MockResponse) -> String {
        switch response.malformation?.base {
        case .missingStatus?: ""
        case .malformedStatusLine?: "HTTP/1.1 \(response.status)0 \(response.reason)\r\n"
        case .statusLineVersion(let version)?: "\(version) \(response.status) \(response.reason)\r\n"
        default: "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        }
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
            let sizeLine = first && response.malformation == .malformedChunkSize ? "zz" : String(size, radix: 16)
            wire += Array("\(sizeLine)\r\n".utf8)
            wire += bytes[offset..<offset + size]
            wire += Array("\r\n".utf8)
            offset += size
            sizeIndex += 1
            first = false
        }
        if bytes.isEmpty, response.malformation == .malformedChunkSize { wire += Array("zz\r\n".utf8) }
        if response.malformation != .missingLastChunkThenClose { wire += Array("0\r\n\r\n".utf8) }
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
