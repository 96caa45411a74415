import Foundation
@testable import MockServer
import TestTraits
import Testing

@Suite("A request body over the limit gets a 413 without being buffered", .scaledTimeLimit(minutes: 1), .blocking)
struct MockServerRequestBodyLimitTests {
    private static let limit = 1024

    private func exchange(_ server: MockServer, _ request: String) throws -> String {
        String(decoding: try RawClient.exchange(port: server.port, Array(request.utf8)), as: UTF8.self)
    }

    @Test("the default limit is 16 MiB")
    func defaultLimit() throws {
        let server = try MockServer()
        defer { server.shutdown() }
        #expect(MockServer.defaultMaximumRequestBodySize == 16 * 1024 * 1024)
        #expect(server.maximumRequestBodySize == MockServer.defaultMaximumRequestBodySize)
    }

    // The body is never sent: the answer can only come from the declared length.
    @Test("a Content-Length over the limit is answered 413 with Connection: close before any body byte")
    func contentLengthOverTheLimit() throws {
        let server = try MockServer(maximumRequestBodySize: Self.limit)
        defer { server.shutdown() }
        server.enqueue(MockResponse())
        let head = "POST /upload HTTP/1.1\r\nContent-Length: 1000000000\r\n\r\n"

        let reply = try exchange(server, head)

        #expect(reply.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(reply)")
        #expect(reply.contains("\r\nConnection: close\r\n"), "\(reply)")
        let request = try server.takeRequest()
        #expect(request.path == "/upload")
        #expect(request.body.isEmpty)
        #expect(request.failure == "request body of 1000000000 bytes is larger than the limit of 1024")
        let record = try server.waitForClose(ofConnection: 0)
        #expect(record.closedBy == .server)
        #expect(record.applicationBytesReceived == head.utf8.count)
    }

    @Test("a body of exactly the limit is read and answered")
    func bodyAtTheLimit() throws {
        let server = try MockServer(maximumRequestBodySize: Self.limit)
        defer { server.shutdown() }
        server.enqueue(MockResponse(closeConnection: true))

        let reply = try exchange(server, "POST / HTTP/1.1\r\nContent-Length: 1024\r\n\r\n" + String(repeating: "a", count: 1024))

        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply)")
        #expect(try server.takeRequest().body.count == Self.limit)
    }

    @Test("Expect: 100-continue with a length over the limit gets 413 and no 100 Continue")
    func expectContinueOverTheLimit() throws {
        let server = try MockServer(maximumRequestBodySize: Self.limit)
        defer { server.shutdown() }

        let reply = try exchange(server, "POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2048\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply)")
        #expect(!reply.contains("100 Continue"))
    }

    @Test("a chunk whose size alone is over the limit is answered 413 before its data")
    func chunkOverTheLimit() throws {
        let server = try MockServer(maximumRequestBodySize: Self.limit)
        defer { server.shutdown() }
        server.enqueue(MockResponse())

        let reply = try exchange(server, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply)")
        #expect(reply.contains("\r\nConnection: close\r\n"), "\(reply)")
        let request = try server.takeRequest()
        #expect(request.failure == "chunked request body larger than the limit of 1024")
        #expect(request.body.isEmpty)
    }

    @Test("chunks that add up to more than the limit are answered 413 with the body read so far recorded")
    func chunksOverTheLimit() throws {
        let server = try MockServer(maximumRequestBodySize: Self.limit)
        defer { server.shutdown() }
        server.enqueue(MockResponse())
        let chunk = "64\r\n" + String(repeating: "c", count: 100) + "\r\n"

        let reply = try exchange(
            server, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: chunk, count: 20) + "0\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply)")
        let request = try server.takeRequest()
        #expect(request.failure == "chunked request body larger than the limit of 1024")
        #expect(request.body.count == 1000)
        #expect(request.chunkSizes == Array(repeating: 100, count: 10))
    }
}
