import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOStack
import NetworkCore
import Reference

func makeStack(_ plan: Plan, _ options: RunCommand) throws -> Network.URLSessionNetworkStack {
    var configuration = Network.URLSessionNetworkStack.Configuration()
    configuration.trustRoots = try .only(pemFiles: [plan.cafile])
    #if BENCH_VALIDATION_PROFILES
    switch options.profile {
    case nil: break
    case .strict: configuration.validationProfile = .strict
    case .compatible: configuration.validationProfile = .compatible
    }
    #endif
    #if BENCH_RESUMPTION
    configuration.resumesTLSSessions = !options.fullHandshakes
    #endif
    #if BENCH_REVOCATION
    if options.crl != nil || options.stapling != nil {
        configuration.revocation = RevocationPolicy(
            revocationLists: try options.crl.map { try CertificateRevocationList.lists(file: $0) } ?? [],
            stapling: options.stapling.flatMap { RevocationPolicy.Stapling(rawValue: $0.rawValue) } ?? .off)
    }
    #endif
    var handler = try pinningHandler(plan, options)
    if let (chain, key) = plan.clientCertificate {
        let identity = try ClientIdentity(pemCertificateFile: chain, privateKeyFile: key)
        handler = ClientCertificateHandler(presenting: identity, serverTrust: handler)
    }
    return Network.URLSessionNetworkStack(configuration: configuration, authenticationChallengeHandler: handler, retryQueue: .global())
}

/// The handler that pins the certificate in `--pin`'s PEM file (the fixture intermediate) for the URL's host.
func pinningHandler(_ plan: Plan, _ options: RunCommand) throws -> (any AuthenticationChallengeHandler)? {
    guard let pinFile = options.pin else { return nil }
    let pin = try ServerCertificate.certificates(pemFile: pinFile)[0].spkiSHA256
    return try ServerTrustEvaluator(configuration: .init(pinningPolicies: [
        try .init(domainName: plan.url.host ?? "localhost", pinnedHashes: [pin], enforceBackupPin: false)
    ]))
}

/// The NIO stack (HTTP/1.1 keep-alive, swift-certificates' Verifier and the handler inside the handshake), trusting
/// only the given root.
func makeNIOStack(_ plan: Plan, _ options: RunCommand) throws -> NIONetworkStack {
    var configuration = NIONetworkStack.Configuration()
    configuration.trustRoots = try .only(pemFiles: [plan.cafile])
    #if BENCH_NIO_HTTP2
    // As AsyncHTTPClient: HTTP/2 offered only with --http2, so that the HTTP/1.1 scenarios stay HTTP/1.1.
    configuration.httpVersions = plan.http2 ? .http2Preferred : .http1Only
    #endif
    #if BENCH_NIO_VALIDATION_PROFILES
    if options.profile == .compatible { configuration.validationProfile = .compatible }
    #endif
    return NIONetworkStack(configuration: configuration, authenticationChallengeHandler: try pinningHandler(plan, options), retryQueue: .global())
}

func profileName(_ options: RunCommand) -> String {
    #if BENCH_VALIDATION_PROFILES
    return options.profile?.rawValue ?? Network.URLSessionNetworkStack.Configuration().validationProfile.name
    #else
    return "none"
    #endif
}

func makeResource(_ plan: Plan) -> Network.URLSessionResource {
    var request = URLRequest(url: plan.url)
    if plan.close { request.setValue("close", forHTTPHeaderField: "Connection") }
    return Network.URLSessionResource(baseRequestMaking: .init { [request] in $0(.success(request)) })
}

/// The callback API: sequential (wait for each completion), or `inflight` chains in which each completion
/// starts the next fetch.
func referenceCallbacks<Stack: NetworkStack>(_ stack: Stack, _ plan: Plan) -> Outcome
where Stack.Resource == Network.URLSessionResource, Stack.Remote == Data, Stack.Response == URLResponse {
    let resource = makeResource(plan)
    func loop(count: Int, seconds: Double) -> Outcome {
        let ticket = Ticket(count: count, seconds: seconds)
        let start = now()
        if plan.inflight <= 1 {
            var outcome = Outcome()
            let one = DispatchSemaphore(value: 0)
            let shared = Shared()
            while ticket.take() {
                let begin = now()
                stack.fetch(resource: resource) { result in
                    if case .success(let value) = result,
                        (value.response as? HTTPURLResponse)?.statusCode == 200 { shared.length.store(value.value.count, ordering: .relaxed) }
                    one.signal()
                }
                one.wait()
                outcome.latencies.append((now() - begin) * 1e6)
                outcome.completed += 1
                let received = shared.length.exchange(-1, ordering: .relaxed)
                if received >= 0 { outcome.bytes += received } else { outcome.failures += 1 }
            }
            outcome.seconds = now() - start
            return outcome
        }
        let shared = Shared()
        let finished = DispatchSemaphore(value: 0)
        @Sendable func next() {
            guard ticket.take() else {
                if shared.running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finished.signal() }
                return
            }
            let begin = now()
            stack.fetch(resource: resource) { result in
                let end = now()
                shared.outcome.withLock { outcome in
                    outcome.latencies.append((end - begin) * 1e6)
                    outcome.completed += 1
                    if case .success(let value) = result, (value.response as? HTTPURLResponse)?.statusCode == 200 {
                        outcome.bytes += value.value.count
                    } else {
                        outcome.failures += 1
                    }
                }
                next()
            }
        }
        shared.running.store(plan.inflight, ordering: .relaxed)
        for _ in 0..<plan.inflight { next() }
        finished.wait()
        var outcome = shared.outcome.withLock { $0 }
        outcome.seconds = now() - start
        return outcome
    }
    let warm = loop(count: plan.warmup, seconds: 0)
    var outcome = loop(count: plan.count, seconds: plan.seconds)
    outcome.failures += warm.failures
    return outcome
}

func referenceAsync(_ stack: Network.URLSessionNetworkStack, _ plan: Plan) -> Outcome {
    let resource = makeResource(plan)
    return blocking {
        let request: @Sendable () async -> Int? = {
            guard let value = try? await stack.fetch(resource: resource),
                (value.response as? HTTPURLResponse)?.statusCode == 200 else { return nil }
            return value.value.count
        }
        let warm = await asyncLoop(Ticket(count: plan.warmup, seconds: 0), inflight: plan.inflight, request)
        var outcome = await asyncLoop(Ticket(count: plan.count, seconds: plan.seconds), inflight: plan.inflight, request)
        outcome.failures += warm.failures
        return outcome
    }
}
