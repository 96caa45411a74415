import NIOCore
import NIOHPACK
import NIOHTTP2
@testable import NIOStack
import Testing

/// One stream's response as the stack reads it from HTTP/2's frames: a `:status` HTTP/2 cannot carry ends the
/// stream as a malformed response (RFC 9113 §8.1.1, §8.6), never as a response with a status made up.
@Suite("NIO stack: an HTTP/2 stream's response head")
struct HTTP2StreamTests {

    /// A stream that records how its exchange ended.
    private final class Recorded {
        var endings: [ResponseCollector.Ending] = []
        lazy var stream = HTTP2Stream(id: 1, sendsBody: false, idleTimeout: .seconds(10), maximumSize: 1024) { [unowned self] in
            self.endings.append($0)
        }
    }

    private static func head(status: String, endStream: Bool = false) -> HTTP2Frame.FramePayload {
        .headers(.init(headers: HPACKHeaders([(":status", status), ("content-type", "text/plain")]), endStream: endStream))
    }

    private static func invalidStatus(_ ending: ResponseCollector.Ending?) -> String? {
        guard case .failure(let error as NIOHTTP2Errors.InvalidStatusValue, answered: _) = ending else { return nil }
        return error.value
    }

    @Test("a final head and its end deliver the response with its status")
    func finalHeadDelivered() {
        let recorded = Recorded()
        #expect(recorded.stream.receive(Self.head(status: "204", endStream: true)))
        guard case .response(let head, body: nil)? = recorded.endings.first else {
            Issue.record("no response: \(recorded.endings)")
            return
        }
        #expect(head.status.code == 204)
        #expect(recorded.endings.count == 1)
    }

    @Test(":status not three digits ends the stream as a failure, not a response", arguments: ["2000", "20", "abc", "2x0", "+20", ""])
    func statusNotThreeDigitsFails(status: String) {
        let recorded = Recorded()
        #expect(recorded.stream.receive(Self.head(status: status)))
        #expect(recorded.stream.hasFailed)
        #expect(Self.invalidStatus(recorded.endings.first) == status)
    }

    @Test("101 Switching Protocols, which HTTP/2 removed, ends the stream as a failure")
    func switchingProtocolsFails() {
        let recorded = Recorded()
        #expect(recorded.stream.receive(Self.head(status: "101")))
        #expect(recorded.stream.hasFailed)
        #expect(Self.invalidStatus(recorded.endings.first) == "101")
    }

    @Test("an interim 103 is skipped: the final head that follows is the response")
    func interimHeadSkipped() {
        let recorded = Recorded()
        #expect(!recorded.stream.receive(Self.head(status: "103")))
        #expect(recorded.stream.receive(Self.head(status: "200", endStream: true)))
        guard case .response(let head, body: nil)? = recorded.endings.first else {
            Issue.record("no response: \(recorded.endings)")
            return
        }
        #expect(head.status.code == 200)
    }
}
