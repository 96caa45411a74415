import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Synchronization

/// The fetch flow on a `URLSession`: request making, interceptors, the data task, the completion branches
/// of alicerce-behaviour §1.6, retries and cancellation. It outlives the public stack so that releasing the
/// stack can still complete every fetch.
final class FoundationFetchEngine: Sendable {

    private struct Registry {
        var fetches: [ObjectIdentifier: FoundationFetch] = [:]
        var invalidated = false
    }

    private let session: URLSession
    private let retryQueue: DispatchQueue
    private let registry = Mutex(Registry())

    init(configuration: URLSessionConfiguration, retryQueue: DispatchQueue) {
        session = URLSession(configuration: configuration)
        self.retryQueue = retryQueue
    }

    func fetch(resource: Network.URLSessionResource, completion: @escaping FoundationFetch.Completion) -> Cancelable {
        let fetch = FoundationFetch(completion: completion)
        let handle = FoundationFetchHandle(fetch: fetch) { [self] fetch in cancel(fetch) }
        let registered = registry.withLock { registry -> Bool in
            guard !registry.invalidated else { return false }
            registry.fetches[ObjectIdentifier(fetch)] = fetch
            return true
        }
        guard registered else {
            fetch.finish(.failure(.cancelled))
            return handle
        }
        attempt(resource, fetch: fetch)
        return handle
    }

    func shutDown() {
        let fetches = registry.withLock { registry -> [FoundationFetch] in
            registry.invalidated = true
            defer { registry.fetches = [:] }
            return Array(registry.fetches.values)
        }
        for fetch in fetches {
            // Finish first, so the task's own -999 completion cannot win the race.
            fetch.finish(.failure(.cancelled))
            fetch.bag.cancel()
        }
        session.invalidateAndCancel()
    }

    private func cancel(_ fetch: FoundationFetch) {
        complete(fetch, with: .failure(.cancelled))
        fetch.bag.cancel()
    }

    private func complete(_ fetch: FoundationFetch, with result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) {
        fetch.finish(result)
        registry.withLock { _ = $0.fetches.removeValue(forKey: ObjectIdentifier(fetch)) }
    }

    // MARK: Attempts

    private func attempt(_ resource: Network.URLSessionResource, fetch: FoundationFetch) {
        guard !fetch.isFinished else { return }
        fetch.bag += resource.makeRequest { [self] result in
            switch result {
            case .failure(let error):
                complete(fetch, with: .failure(.noRequest(error)))
                return DummyCancelable()
            case .success(let request):
                return schedule(request, resource: resource, fetch: fetch)
            }
        }
    }

    private func schedule(_ request: URLRequest, resource: Network.URLSessionResource, fetch: FoundationFetch) -> Cancelable {
        guard !fetch.isFinished else { return DummyCancelable() }
        let box = TaskIdentifierBox()
        let task = session.dataTask(with: request) { [self] data, response, error in
            handle(data: data, response: response, error: error, request: request, resource: resource, fetch: fetch, taskIdentifier: box.value)
        }
        box.value = task.taskIdentifier
        for interceptor in resource.interceptors {
            interceptor.interceptScheduledTask(withIdentifier: task.taskIdentifier, request: request, retryState: resource.retryState)
        }
        task.resume()
        return DataTaskCancelable(task)
    }

    // MARK: Outcomes (the session's delegate queue)

    private func handle(
        data: Data?, response: URLResponse?, error: Error?, request: URLRequest,
        resource: Network.URLSessionResource, fetch: FoundationFetch, taskIdentifier: Int
    ) {
        guard !fetch.isFinished else { return }
        if let error {
            // URLSession reports NSURLErrorDomain errors; bridge anything else by its code, as Alicerce does.
            let urlError = error as? URLError ?? URLError(URLError.Code(rawValue: (error as NSError).code) ?? .unknown, userInfo: (error as NSError).userInfo)
            failed(.url(urlError), data: data, response: response, request: request, resource: resource, fetch: fetch, taskIdentifier: taskIdentifier)
            return
        }
        guard let httpResponse = response as? HTTPURLResponse else {
            complete(fetch, with: .failure(.badResponse(response)))
            return
        }
        let status = HTTP.StatusCode(httpResponse.statusCode)
        guard case .success = status else {
            let apiError = resource.errorDecoding.decode(data, httpResponse)
            failed(.http(status, apiError, httpResponse), data: data, response: httpResponse, request: request, resource: resource, fetch: fetch, taskIdentifier: taskIdentifier)
            return
        }
        // URLSession gives empty Data for an empty body: an empty 2xx is noData unless the status (or HEAD) allows it.
        let payload = data ?? Data()
        if payload.isEmpty && !resource.allowsEmptyBody(statusCode: httpResponse.statusCode) && request.httpMethod != "HEAD" {
            failed(.noData(status, httpResponse), data: data, response: httpResponse, request: request, resource: resource, fetch: fetch, taskIdentifier: taskIdentifier)
            return
        }
        for interceptor in resource.interceptors {
            interceptor.interceptSuccessfulTask(withIdentifier: taskIdentifier, request: request, data: payload, response: httpResponse, retryState: resource.retryState)
        }
        complete(fetch, with: .success(Network.Value(value: payload, response: httpResponse)))
    }

    private func failed(
        _ error: Network.URLSessionError, data: Data?, response: URLResponse?, request: URLRequest,
        resource: Network.URLSessionResource, fetch: FoundationFetch, taskIdentifier: Int
    ) {
        let action = resource.interceptors.reduce(Retry.Action.none) { action, interceptor in
            resource.retryActionPriority(action, interceptor.interceptFailedTask(
                withIdentifier: taskIdentifier, request: request, data: data, response: response, error: error, retryState: resource.retryState))
        }
        var next = resource
        next.retryState.errors.append(error)
        switch action {
        case .none: complete(fetch, with: .failure(error))
        case .noRetry(let retryError): complete(fetch, with: .failure(.retry(retryError, next.retryState)))
        case .retry: retry(next, after: 0, fetch: fetch)
        case .retryAfter(let delay): retry(next, after: delay, fetch: fetch)
        }
    }

    private func retry(_ resource: Network.URLSessionResource, after delay: Retry.Delay, fetch: FoundationFetch) {
        guard !fetch.bag.isCancelled else {
            complete(fetch, with: .failure(.cancelled))
            return
        }
        guard delay > 0 else {
            attempt(resource, fetch: fetch)
            return
        }
        var delayed = resource
        delayed.retryState.totalDelay += delay
        let workItem = DispatchWorkItem { [self] in attempt(delayed, fetch: fetch) }
        fetch.bag += DelayedAttempt(workItem)
        retryQueue.asyncAfter(deadline: .now() + delay, execute: workItem)
    }
}

/// The task identifier, known only once the task exists, read by its completion handler.
private final class TaskIdentifierBox: @unchecked Sendable {  // written once before resume(), read after
    var value = Int.max
}
