import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

/// The fetch flow as a value: each test feeds events and checks the action that comes out.
@Suite("The fetch state machine")
struct FetchStateMachineTests {

    private struct APIError: Error, Equatable { let payload: String }

    private let url = URL(string: "https://api.example.test/items")!

    private func resource(emptyBodyStatusCodes: Set<Int> = []) -> Network.URLSessionResource {
        Network.URLSessionResource(
            baseRequestMaking: .init { _ in DummyCancelable() },
            errorDecoding: .init { data, _ in data.map { APIError(payload: String(decoding: $0, as: UTF8.self)) } },
            emptyBodyStatusCodes: emptyBodyStatusCodes)
    }

    private func response(_ status: Int) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
    }

    /// A machine that has sent its first request (`method`), ready for the transport's outcome.
    private func sending(method: String = "GET", emptyBodyStatusCodes: Set<Int> = []) -> Network.FetchStateMachine {
        var machine = Network.FetchStateMachine(resource: resource(emptyBodyStatusCodes: emptyBodyStatusCodes))
        _ = machine.start()
        var request = URLRequest(url: url)
        request.httpMethod = method
        _ = machine.requestMade(.success(request), taskIdentifier: 7)
        return machine
    }

    /// A machine whose first attempt failed with a transport error, waiting for the interceptors' answer.
    private func askingInterceptors() -> Network.FetchStateMachine {
        var machine = sending()
        _ = machine.transportCompleted(.failure(URLError(.networkConnectionLost)))
        return machine
    }

    // MARK: Making the request

    @Test("starting makes the resource's request")
    func startMakesRequest() {
        var machine = Network.FetchStateMachine(resource: resource())
        guard case .makeRequest(let resource) = machine.start() else { Issue.record("expected makeRequest"); return }
        #expect(resource.retryState.attemptCount == 1)
        #expect(!machine.isFinished)
    }

    @Test("a failure to make the request completes with noRequest")
    func requestFailure() {
        struct Refused: Error {}
        var machine = Network.FetchStateMachine(resource: resource())
        _ = machine.start()
        guard case .complete(.failure(.noRequest(let error))) = machine.requestMade(.failure(Refused()), taskIdentifier: 1) else {
            Issue.record("expected noRequest"); return
        }
        #expect(error is Refused)
        #expect(machine.isFinished)
    }

    @Test("a made request is sent with the driver's task identifier")
    func requestSent() {
        var machine = Network.FetchStateMachine(resource: resource())
        _ = machine.start()
        guard case .send(let attempt) = machine.requestMade(.success(URLRequest(url: url)), taskIdentifier: 42) else {
            Issue.record("expected send"); return
        }
        #expect(attempt.taskIdentifier == 42)
        #expect(attempt.request.url == url)
    }

    // MARK: Sorting the outcome

    @Test("a 2xx with a body succeeds with that body")
    func successWithBody() {
        var machine = sending()
        guard case .succeed(let succeeded) = machine.transportCompleted(.response(response(200), body: Data("hi".utf8))) else {
            Issue.record("expected succeed"); return
        }
        #expect(succeeded.value.value == Data("hi".utf8))
        #expect(machine.isFinished)
    }

    @Test("a 2xx without a body is noData, asked of the interceptors", arguments: [200, 201, 202])
    func emptySuccessIsNoData(status: Int) {
        var machine = sending()
        guard case .askInterceptors(let failed) = machine.transportCompleted(.response(response(status), body: nil)),
            case .noData(let code, _) = failed.error
        else { Issue.record("expected noData"); return }
        #expect(code == .success(status))
    }

    @Test(
        "204, 205, a listed status and a HEAD response succeed with an empty body",
        arguments: [(204, "GET"), (205, "GET"), (201, "GET"), (200, "HEAD")])
    func allowedEmptyBodies(status: Int, method: String) {
        var machine = sending(method: method, emptyBodyStatusCodes: [201])
        guard case .succeed(let succeeded) = machine.transportCompleted(.response(response(status), body: nil)) else {
            Issue.record("expected succeed"); return
        }
        #expect(succeeded.value.value.isEmpty)
    }

    @Test("a non-2xx is http, with the API error the driver decoded from the body", arguments: [301, 404, 503, 700])
    func httpError(status: Int) {
        var machine = sending()
        // The machine asks for the decoding instead of running the user's code itself, inside the driver's lock.
        guard
            case .decodeAPIError(let body, let received, let decoding) = machine.transportCompleted(
                .response(response(status), body: Data("oops".utf8)))
        else { Issue.record("expected decodeAPIError"); return }
        #expect(received.statusCode == status)
        guard case .askInterceptors(let failed) = machine.apiErrorDecoded(decoding.decode(body, received)),
            case .http(let code, let apiError, _) = failed.error
        else { Issue.record("expected http"); return }
        #expect(code.statusCode == status)
        #expect(apiError as? APIError == APIError(payload: "oops"))
        #expect(failed.data == Data("oops".utf8))
    }

    @Test("a cancel while the API error is decoded completes at once; the decoding's answer then changes nothing")
    func cancelWhileDecoding() {
        var machine = sending()
        guard case .decodeAPIError = machine.transportCompleted(.response(response(500), body: Data("oops".utf8))) else {
            Issue.record("expected decodeAPIError"); return
        }
        guard case .complete(.failure(.cancelled)) = machine.cancel() else { Issue.record("expected cancelled"); return }
        guard case .none = machine.apiErrorDecoded(nil) else { Issue.record("expected nothing after the cancel"); return }
    }

    @Test("a final 1xx is badResponse, without asking the interceptors", arguments: [100, 101, 103])
    func informationalIsBadResponse(status: Int) {
        var machine = sending()
        guard
            case .complete(.failure(.badResponse(let received))) = machine.transportCompleted(
                .response(response(status), body: Data("x".utf8)))
        else {
            Issue.record("expected badResponse"); return
        }
        #expect((received as? HTTPURLResponse)?.statusCode == status)
        #expect(machine.isFinished)
    }

    @Test("no HTTP response is badResponse, without asking the interceptors")
    func noHTTPResponse() {
        var machine = sending()
        guard case .complete(.failure(.badResponse(nil))) = machine.transportCompleted(.noHTTPResponse(nil)) else {
            Issue.record("expected badResponse"); return
        }
    }

    @Test("a transport failure is url, asked of the interceptors")
    func transportFailure() {
        var machine = sending()
        guard case .askInterceptors(let failed) = machine.transportCompleted(.failure(URLError(.timedOut))),
            case .url(let error) = failed.error
        else { Issue.record("expected url"); return }
        #expect(error.code == .timedOut)
        #expect(failed.response == nil)
    }

    // MARK: The interceptors' answer

    @Test("no retry action completes with the failure itself")
    func noAction() {
        var machine = askingInterceptors()
        guard case .complete(.failure(.url(let error))) = machine.interceptorsAnswered(.none) else { Issue.record("expected url"); return }
        #expect(error.code == .networkConnectionLost)
        #expect(machine.isFinished)
    }

    @Test("noRetry completes with retry, carrying the state with this attempt's error")
    func noRetry() {
        var machine = askingInterceptors()
        guard case .complete(.failure(.retry(.retries(3), let state))) = machine.interceptorsAnswered(.noRetry(.retries(3))) else {
            Issue.record("expected retry"); return
        }
        #expect(state.errors.count == 1)
        #expect(state.totalDelay == 0)
    }

    @Test("retry makes the request again at once, with the error in the retry state")
    func retryAtOnce() {
        var machine = askingInterceptors()
        guard case .makeRequest(let next) = machine.interceptorsAnswered(.retry) else { Issue.record("expected makeRequest"); return }
        #expect(next.retryState.errors.count == 1)
        #expect(next.retryState.attemptCount == 2)
    }

    @Test("retryAfter a positive delay waits, then makes the request with the delay counted")
    func retryAfterDelay() {
        var machine = askingInterceptors()
        guard case .waitForRetry(let delay) = machine.interceptorsAnswered(.retryAfter(2.5)) else { Issue.record("expected wait"); return }
        #expect(delay == 2.5)
        guard case .makeRequest(let next) = machine.retryTimerFired() else { Issue.record("expected makeRequest"); return }
        #expect(next.retryState.totalDelay == 2.5)
        #expect(next.retryState.errors.count == 1)
    }

    @Test(
        "retryAfter zero, a negative delay or NaN retries at once and adds nothing to the total delay",
        arguments: [0, -3, Double.nan])
    func retryAfterNonPositive(delay: Double) {
        var machine = askingInterceptors()
        guard case .makeRequest(let next) = machine.interceptorsAnswered(.retryAfter(delay)) else {
            Issue.record("expected makeRequest"); return
        }
        #expect(next.retryState.totalDelay == 0)
    }

    @Test("a second attempt sees the first attempt's error in its state")
    func secondAttempt() {
        var machine = askingInterceptors()
        _ = machine.interceptorsAnswered(.retry)
        _ = machine.requestMade(.success(URLRequest(url: url)), taskIdentifier: 8)
        guard case .askInterceptors(let failed) = machine.transportCompleted(.failure(URLError(.timedOut))) else {
            Issue.record("expected ask"); return
        }
        #expect(failed.attempt.resource.retryState.errors.count == 1)
        #expect(failed.attempt.taskIdentifier == 8)
    }

    // MARK: Cancelling

    /// Machines at every stage where a cancel can arrive.
    private static let stages: [String] = [
        "making the request", "sending", "asking the interceptors", "waiting for a retry", "making a retry",
    ]

    private func machine(at stage: String) -> Network.FetchStateMachine {
        var machine = Network.FetchStateMachine(resource: resource())
        _ = machine.start()
        if stage == "making the request" { return machine }
        _ = machine.requestMade(.success(URLRequest(url: url)), taskIdentifier: 1)
        if stage == "sending" { return machine }
        _ = machine.transportCompleted(.failure(URLError(.timedOut)))
        if stage == "asking the interceptors" { return machine }
        _ = machine.interceptorsAnswered(stage == "waiting for a retry" ? .retryAfter(10) : .retry)
        return machine
    }

    @Test("cancelling completes with cancelled at every stage", arguments: stages)
    func cancelAtEveryStage(stage: String) {
        var machine = machine(at: stage)
        guard case .complete(.failure(.cancelled)) = machine.cancel() else { Issue.record("expected cancelled"); return }
        #expect(machine.isFinished)
    }

    @Test("after a cancel, every later event does nothing", arguments: stages)
    func eventsAfterCancel(stage: String) {
        var machine = machine(at: stage)
        _ = machine.cancel()
        let later: [Network.FetchStateMachine.Action] = [
            machine.cancel(),
            machine.requestMade(.success(URLRequest(url: url)), taskIdentifier: 2),
            machine.transportCompleted(.response(response(200), body: Data("late".utf8))),
            machine.interceptorsAnswered(.retry),
            machine.retryTimerFired(),
            machine.start(),
        ]
        for action in later {
            guard case .none = action else { Issue.record("expected none, got \(action)"); return }
        }
    }

    @Test("a completed fetch ignores a cancel")
    func cancelAfterSuccess() {
        var machine = sending()
        _ = machine.transportCompleted(.response(response(200), body: Data("x".utf8)))
        guard case .none = machine.cancel() else { Issue.record("expected none"); return }
    }

    @Test("events that do not belong to the current stage do nothing")
    func staleEvents() {
        var machine = sending()
        guard case .none = machine.retryTimerFired(), case .none = machine.interceptorsAnswered(.retry),
            case .none = machine.requestMade(.success(URLRequest(url: url)), taskIdentifier: 3)
        else { Issue.record("expected none"); return }
        guard case .succeed = machine.transportCompleted(.response(response(200), body: Data("x".utf8))) else {
            Issue.record("expected the machine to still be sending"); return
        }
    }
}
