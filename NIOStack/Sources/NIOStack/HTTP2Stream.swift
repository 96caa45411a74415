import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression

/// One request's stream on a shared HTTP/2 connection, read from the connection's own frames (no stream channel):
/// its response heads and body as ``ResponseAssembly`` puts them together, decoded when the server compressed the
/// body, and when a byte last moved on it, for its idle timeout.
final class HTTP2Stream {
    let id: HTTP2StreamID
    /// Whether the request sends a body, which flow control may hold back after the response ended.
    let sendsBody: Bool
    /// When a frame of the stream last arrived (or the stream opened).
    private var lastActivity = NIODeadline.now()
    private let idleTimeout: TimeAmount
    /// Whether its exchange ended in a failure.
    private(set) var hasFailed = false
    /// Whether the client reset it: once is all HTTP/2 allows.
    var wasReset = false
    /// Told once how the exchange ended.
    private var finish: ((ResponseCollector.Ending) -> Void)?
    private var response: ResponseAssembly
    private let maximumSize: Int
    private var sawFinalHead = false
    /// NIO's decompressor in a channel of its own, for a body with a `content-encoding`.
    private var decompressor: EmbeddedChannel?

    init(
        id: HTTP2StreamID, sendsBody: Bool, idleTimeout: TimeAmount, maximumSize: Int, finish: @escaping (ResponseCollector.Ending) -> Void
    ) {
        self.id = id
        self.sendsBody = sendsBody
        self.idleTimeout = idleTimeout
        self.maximumSize = maximumSize
        self.response = ResponseAssembly(maximumSize: maximumSize)
        self.finish = finish
    }

    /// When the stream times out unless a frame arrives first.
    var idleDeadline: NIODeadline { lastActivity + idleTimeout }

    /// Whether its exchange was told how it ended (or no longer listens).
    var isFinished: Bool { finish == nil }

    /// Takes a frame of the stream; `true` when that ended the exchange.
    func receive(_ payload: HTTP2Frame.FramePayload) -> Bool {
        lastActivity = .now()
        switch payload {
        case .headers(let block):
            if !sawFinalHead {
                let head: HTTPResponseHead
                do throws(NIOHTTP2Errors.InvalidStatusValue) {
                    head = try Self.head(of: block.headers)
                } catch {
                    fail(error)
                    return true
                }
                sawFinalHead = !(100..<200).contains(head.status.code)
                if sawFinalHead, head.headers.contains(name: "content-encoding") { startDecompressing() }
                if take(.head(head)) { return true }
            }
            // Trailers carry nothing the fetch delivers; HTTP/2's handler checked that they end the stream.
            return block.endStream ? take(.end(nil)) : false
        case .data(let data):
            if case .byteBuffer(let bytes) = data.data, bytes.readableBytes > 0, take(.body(bytes)) { return true }
            return data.endStream ? take(.end(nil)) : false
        default:
            return false
        }
    }

    /// Ends the exchange with `error`, unless it ended already.
    func fail(_ error: any Error) {
        end(.failure(error, answered: response.isAnswered))
    }

    /// Stops listening without telling the exchange (it ended on its own: a cancel, its resource limit).
    func abandon() {
        finish = nil
        _ = try? decompressor?.finish()
        decompressor = nil
    }

    /// A part of the response, through the decompressor when there is one; `true` when the exchange ended.
    private func take(_ part: HTTPClientResponsePart) -> Bool {
        guard let decompressor else { return take(assembled: part) }
        do {
            try decompressor.writeInbound(part)
            while let decoded: HTTPClientResponsePart = try decompressor.readInbound() {
                if take(assembled: decoded) { return true }
            }
            return false
        } catch {
            fail(error)
            return true
        }
    }

    private func take(assembled part: HTTPClientResponsePart) -> Bool {
        guard let ending = response.receive(part) else { return false }
        end(ending)
        return true
    }

    private func end(_ ending: ResponseCollector.Ending) {
        guard let finish else { return }
        var ending = ending
        if case .failure(let error, _) = ending {
            ending = .failure(error, answered: response.isAnswered)
            hasFailed = true
        }
        abandon()
        finish(ending)
    }

    private func startDecompressing() {
        let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(maximumSize)))
        decompressor = channel
    }

    /// The head HTTP/2's fields describe: `:status` (HTTP/2's handler made sure there is one) and the regular fields.
    /// A status that is not three digits is malformed (RFC 9113 §8.3.2), and so is 101, which HTTP/2 removed (§8.6).
    private static func head(of fields: HPACKHeaders) throws(NIOHTTP2Errors.InvalidStatusValue) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        var status = ""
        for field in fields {
            if field.name == ":status" {
                status = field.value
            } else if !field.name.hasPrefix(":") {
                headers.add(name: field.name, value: field.value)
            }
        }
        guard status.utf8.count == 3, status.utf8.allSatisfy({ (0x30...0x39).contains($0) }), status != "101", let code = Int(status)
        else { throw NIOHTTP2Errors.invalidStatusValue(status) }
        return HTTPResponseHead(version: .http2, status: HTTPResponseStatus(statusCode: code), headers: headers)
    }
}
