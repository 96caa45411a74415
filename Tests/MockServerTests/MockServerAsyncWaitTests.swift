import Foundation
import MockServer
import Testing

/// The async waits beside the blocking ones: the same results, the same deadlines.
@Suite("Async waits", .timeLimit(.minutes(1)))
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

    @Test("waits leave the cooperative pool free: more waiters than it has threads, and other work still runs")
    func waitsLeaveThePoolFree() async throws {
        let server = try makeServer()
        for _ in 0..<8 { server.enqueue(MockResponse(body: Data("x".utf8))) }

        let received = try await withThrowingTaskGroup(of: RecordedRequest.self) { group in
            for _ in 0..<8 { group.addTask { try await server.awaitRequest(timeout: .seconds(3)) } }
            // Queued behind the eight waiters: if each waiter held a pool thread, this would run only once some had
            // timed out, and their requests, sent after it, would find no one waiting.
            let poolRan = await Task.detached { true }.value
            #expect(poolRan)
            DispatchQueue.global().async { for _ in 0..<8 { _ = Curl.run(server.url("/many")) } }
            var paths: [String] = []
            for try await request in group { paths.append(request.path) }
            return paths
        }

        #expect(received == Array(repeating: "/many", count: 8))
    }
}
