import Dispatch
import Foundation
import FoundationSubject
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Reference
import Testing

/// Every stack of the package stops the same three ways (NetworkCore's `StoppableNetworkStack`, carried out by its
/// `FetchEngine`): what happens to a fetch in flight at the stop, and to one started after it.
@Suite("Every stack stops the same three ways", .timeLimit(.minutes(1)))
struct SharedStopRulesTests {

    enum Stop: String, CaseIterable, Sendable {
        case shutdown, finishFetchesAndInvalidateSession, invalidateAndCancel
    }

    enum Stack: String, CaseIterable, Sendable {
        case reference, nio, foundation
    }

    /// What a stop did: how the fetch in flight ended, how a later one ended, and (for `shutdown()`) whether the call
    /// returned while the fetch in flight still waited for its response.
    struct Transcript: Equatable, CustomStringConvertible {
        var inFlight: String
        var later: String
        var returnedEarly = false

        var description: String { "in flight: \(inFlight), later: \(later)\(returnedEarly ? ", returned early" : "")" }
    }

    @Test("a stop treats the fetch in flight and a later fetch as every other stack does", arguments: Stack.allCases, Stop.allCases)
    func stopAgrees(stack: Stack, stop: Stop) async throws {
        let expected =
            stop == .invalidateAndCancel
            ? Transcript(inFlight: "cancelled", later: "cancelled") : Transcript(inFlight: "200", later: "cancelled")
        let transcript: Transcript
        switch stack {
        case .reference: transcript = try await Self.transcript(Network.URLSessionNetworkStack(retryQueue: .global()), stop)
        case .nio: transcript = try await Self.transcript(NIONetworkStack(retryQueue: .global()), stop)
        case .foundation: transcript = try await Self.transcript(FoundationNetworkStack(retryQueue: .global()), stop)
        }
        #expect(transcript == expected, "\(stack) after \(stop)")
    }

    /// Stops `stack` while its server holds the response to a fetch (the dispatcher waits until the test lets it go).
    private static func transcript<S: StoppableNetworkStack>(_ stack: S, _ stop: Stop) async throws -> Transcript
    where S.Resource == Network.URLSessionResource, S.Remote == Data, S.Response == URLResponse, S.FetchError == Network.URLSessionError {
        let server = try MockServer()
        defer { server.shutdown() }
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        server.dispatcher = MockDispatcher { request in
            if request.path == "/held" {
                arrived.signal()
                release.wait()
            }
            return MockResponse(status: 200, body: Data("ok".utf8))
        }
        let inFlight = Task { await outcome(stack, server.url("/held")) }
        await Task.detached { arrived.wait() }.value

        var transcript = Transcript(inFlight: "", later: "")
        switch stop {
        case .shutdown:
            let returned = Locked(false)
            let stopping = Task {
                await stack.shutdown()
                returned.withLock { $0 = true }
            }
            // Once a probe is refused the stack has begun to stop; the held fetch cannot have completed yet.
            var probe = "200"
            for _ in 0..<200 where probe != "cancelled" { probe = await outcome(stack, server.url("/probe")) }
            transcript.later = probe
            transcript.returnedEarly = returned.withLock { $0 }
            release.signal()
            await stopping.value
        case .finishFetchesAndInvalidateSession:
            stack.finishFetchesAndInvalidateSession()
            transcript.later = await outcome(stack, server.url("/probe"))
            release.signal()
        case .invalidateAndCancel:
            stack.invalidateAndCancel()
            transcript.later = await outcome(stack, server.url("/probe"))
            release.signal()
        }
        transcript.inFlight = await inFlight.value
        return transcript
    }

    /// The status a fetch of `url` ended with, `cancelled`, or the error.
    private static func outcome<S: StoppableNetworkStack>(_ stack: S, _ url: URL) async -> String
    where S.Resource == Network.URLSessionResource, S.Remote == Data, S.Response == URLResponse, S.FetchError == Network.URLSessionError {
        switch await stack.result(fetching: url) {
        case .success(let value): "\((value.response as? HTTPURLResponse)?.statusCode ?? 0)"
        case .failure(.cancelled): "cancelled"
        case .failure(let error): "\(error)"
        }
    }
}
