import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

private struct Dummy: Error {}

@Suite("Network.URLSessionError accessors")
struct URLSessionErrorTests {

    let response = HTTPURLResponse(url: URL(string: "https://example.test")!, statusCode: 500, httpVersion: nil, headerFields: nil)!

    @Test("a retry with no errors has no response and is its own last error")
    func emptyRetry() {
        let error = Network.URLSessionError.retry(.retries(1337), .empty)
        #expect(error.response == nil)
        #expect(error.statusCode == nil)
        guard case .retry = error.lastError else { Issue.record("expected the retry itself"); return }
    }

    @Test("a retry's last error, status and response come from its state's last error")
    func retryForwardsToLastError() {
        let last = Network.URLSessionError.http(.unknownError(1337), nil, response)
        let error = Network.URLSessionError.retry(.retries(1), Retry.State(errors: [Dummy(), last], totalDelay: 0))
        #expect(error.statusCode == .unknownError(1337))
        #expect(error.response === response)
        guard case .http(.unknownError(1337), _, _) = error.lastError else { Issue.record("expected the http error"); return }
    }

    @Test("a retry whose last error is not a URLSessionError is its own last error")
    func retryWithForeignLastError() {
        let error = Network.URLSessionError.retry(.retries(1), Retry.State(errors: [Dummy(), Dummy()], totalDelay: 0))
        guard case .retry = error.lastError else { Issue.record("expected the retry itself"); return }
        #expect(error.response == nil)
    }

    @Test("http and noData carry their status and response; the others carry none")
    func directCases() {
        #expect(Network.URLSessionError.http(.serverError(500), nil, response).statusCode == .serverError(500))
        #expect(Network.URLSessionError.noData(.success(200), response).response === response)
        #expect(Network.URLSessionError.badResponse(response).response === response)
        #expect(Network.URLSessionError.badResponse(nil).statusCode == nil)
        #expect(Network.URLSessionError.url(URLError(.timedOut)).response == nil)
        #expect(Network.URLSessionError.noRequest(Dummy()).statusCode == nil)
        #expect(Network.URLSessionError.cancelled.response == nil)
    }
}
