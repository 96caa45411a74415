import NIOCore
import NIOHTTP1

/// A response put together from its parts, whichever protocol carried them: interim heads skipped but counted against
/// the bound on heads, the announced and the received body held to the size limit. One exchange's, used once.
struct ResponseAssembly {
    private let maximumSize: Int
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?
    private var headBytes = 0

    init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    /// Whether any response head arrived, interim ones included: then the server answered the request.
    var isAnswered: Bool { head != nil || headBytes > 0 }

    /// Takes the next part; returns how the exchange ended once it did.
    mutating func receive(_ part: HTTPClientResponsePart) -> ResponseCollector.Ending? {
        switch part {
        case .head(let head):
            // Status line and fields, each with its CRLF, as they stood on the wire.
            headBytes +=
                14 + head.status.reasonPhrase.utf8.count + head.headers.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            if headBytes > ResponseCollector.maximumHeadBytes { return .failure(ResponseCollector.HeadsTooLarge(), answered: false) }
            // An interim head (103 Early Hints): the final one follows.
            if (100..<200).contains(head.status.code), head.status != .switchingProtocols { return nil }
            self.head = head
            if let announced = head.headers.first(name: "content-length").flatMap(Int.init), announced > maximumSize {
                return .failure(ResponseCollector.TooLarge(), answered: false)
            }
            // A 101 the request never asked for: the server left HTTP, so the head is all there is.
            return head.status == .switchingProtocols ? .response(head, body: nil) : nil
        case .body(var part):
            if (body?.readableBytes ?? 0) + part.readableBytes > maximumSize {
                return .failure(ResponseCollector.TooLarge(), answered: false)
            }
            if body == nil { body = part } else { body!.writeBuffer(&part) }
            return nil
        case .end:
            guard let head else { return .failure(ChannelError.eof, answered: false) }
            return .response(head, body: body)
        }
    }
}
