import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOPosix
import NIOSSL

/// AsyncHTTPClient 1.37 on the shared NIO event loop group (its size follows the CPUs the process may use),
/// HTTP/1.1 only unless `--http2` (then `.automatic`: h2 when the server selects it), trusting only the given root, a pool as wide as `inflight`.
func asyncHTTPClient(_ plan: Plan) -> Outcome {
    blocking {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(plan.cafile)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = plan.http2 ? .automatic : .http1Only
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, plan.inflight))
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        var request = HTTPClientRequest(url: plan.url.absoluteString)
        if plan.close { request.headers.add(name: "Connection", value: "close") }
        let once: @Sendable () async -> Int? = { [request] in
            do {
                let response = try await client.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 16 << 20)
                return response.status == .ok ? body.readableBytes : nil
            } catch {
                return nil
            }
        }
        let warm = await asyncLoop(Ticket(count: plan.warmup, seconds: 0), inflight: plan.inflight, once)
        var outcome = await asyncLoop(Ticket(count: plan.count, seconds: plan.seconds), inflight: plan.inflight, once)
        outcome.failures += warm.failures
        try? await client.shutdown()
        return outcome
    }
}

/// Foundation's URLSession (FoundationNetworking on libcurl). On Linux it trusts only the system CA bundle, so
/// Scripts/bench runs it in a mount namespace where the fixture root is bind-mounted over that bundle.
func urlSession(_ plan: Plan) -> Outcome {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpMaximumConnectionsPerHost = max(1, plan.inflight)
    let session = URLSession(configuration: configuration)
    var request = URLRequest(url: plan.url)
    if plan.close { request.setValue("close", forHTTPHeaderField: "Connection") }
    let outcome = blocking { [request] in
        let once: @Sendable () async -> Int? = {
            guard let (data, response) = try? await session.data(for: request),
                (response as? HTTPURLResponse)?.statusCode == 200 else { return nil }
            return data.count
        }
        let warm = await asyncLoop(Ticket(count: plan.warmup, seconds: 0), inflight: plan.inflight, once)
        var outcome = await asyncLoop(Ticket(count: plan.count, seconds: plan.seconds), inflight: plan.inflight, once)
        outcome.failures += warm.failures
        return outcome
    }
    session.invalidateAndCancel()
    return outcome
}
