import Foundation
@testable import MockServer
import TestTraits
import Testing

@Suite("Malformed requests get a 400 and a journal entry, never a crash", .scaledTimeLimit(minutes: 1), .blocking)
struct MockServerMalformedRequestTests {
    private func exchange(_ server: MockServer, _ request: String) throws -> String {
        String(decoding: try RawClient.exchange(port: server.port, Array(request.utf8)), as: UTF8.self)
    }

    @Test(
        "a chunked body with a malformed size gets 400 and is recorded as failed",
        arguments: [
            "-5\r\nabc\r\n0\r\n\r\n", "+5\r\nabcde\r\n0\r\n\r\n", "\r\nabc\r\n0\r\n\r\n", "ffffffffffffffffffff\r\n",
            "5 junk\r\nabcde\r\n0\r\n\r\n",
        ])
    func malformedChunkSize(chunks: String) throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse())

        let reply = try exchange(server, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)

        #expect(reply.hasPrefix("HTTP/1.1 400"), "\(reply)")
        #expect(try server.takeRequest().failure == "malformed chunk size line")
        let record = try server.waitForClose(ofConnection: 0)
        #expect(record.closedBy == .server)
        #expect(record.requestCount == 1)
    }

    @Test("a malformed Content-Length gets 400 and is recorded as failed", arguments: ["-1", "", "99999999999999999999"])
    func malformedContentLength(value: String) throws {
        let server = try MockServer()
        defer { server.shutdown() }

        let reply = try exchange(server, "POST / HTTP/1.1\r\nContent-Length: \(value)\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 400"), "\(reply)")
        #expect(try server.takeRequest().failure?.hasPrefix("malformed Content-Length") == true)
    }
}
