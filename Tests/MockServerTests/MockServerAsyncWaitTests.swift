import Foundation
import MockServer
import TestTraits
import Testing

/// The async waits beside the blocking ones: the same results, the same deadlines.
@Suite("Async waits", .scaledTimeLimit(minutes: 1), .blocking)
struct MockServerAsyncWaitTests: ServerTests {
    @Test("awaitRequest returns the recorded request, and awaitClose the final record")
    func awaitRequestAndClose() async throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("ok".utf8), closeConnection: true))

        let result = Curl.run(server.url("/async"))
        try await server.awaitConnections(1)
        let request = try await server.awaitRequest()
        let record = try await server.awaitClose(ofConnection: 0)

        #expect(result.body == "ok")
        #expect(request.path == "/async")
        #expect(record.requestCount == 1)
    }

    @Test("awaitRequest gives up at its deadline with a timeout")
    func awaitRequestTimesOut() async throws {
        let server = try makeServer()

        await #expect(throws: MockServerError.timeout) { try await server.awaitRequest(timeout: .milliseconds(50)) }
    }

    @Test("more waiters than CPUs are all served, the requests coming from Dispatch")
    func waitsHoldNoSharedWorkerThread() async throws {
        let server = try makeServer()
        for _ in 0..<8 { server.enqueue(MockResponse(body: Data("x".utf8))) }

        let received = try await withThrowingTaskGroup(of: RecordedRequest.self) { group in
            for _ in 0..<8 { group.addTask { try await server.awaitRequest(timeout: .seconds(10)) } }
            // The requests come from a Dispatch block: waits that ran on Dispatch's global queue could hold it back.
            DispatchQueue.global().async { for _ in 0..<8 { _ = Curl.run(server.url("/many")) } }
            var paths: [String] = []
            for try await request in group { paths.append(request.path) }
            return paths
        }

        #expect(received == Array(repeating: "/many", count: 8))
    }
}
