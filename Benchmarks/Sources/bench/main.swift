// One bounded request loop of one client, printed as one JSON line; Scripts/bench runs it once per
// contender and round (each in its own process, pinned to a CPU) and turns the lines into a table.
//
//   bench run --client NAME --url URL --cafile PEM [--count N] [--warmup N] [--inflight N] [--seconds S]
//             [--close] [--resume] [--full-handshakes] [--http2] [--pin PEM] [--profile strict|compatible]
//             [--client-cert PEM --client-key KEY] [--crl PEM] [--stapling checked-when-stapled|required]
//
// Clients: libcurl (C: one easy handle, or one multi handle with --inflight easy handles), reference (the
// stack's callback API), reference-async (its async API), ahc (AsyncHTTPClient), urlsession (Foundation), nio (the
// NIO stack of NIOStack/, on the callback API like reference).
// `--warmup` requests run first, untimed, on the same connections; then at most `--count` requests, and
// none is started after `--seconds`. `--close` sends `Connection: close`, so every request is a new TCP
// connection: a full TLS handshake against the servers of Scripts/bench without session cache and tickets, a resumed
// one against its resumption server for a client that resumes (the reference stack by default, libcurl C with
// `--resume`; `--full-handshakes` turns the reference stack's resumption off).
import ArgumentParser
import AsyncHTTPClient
import CRawCurl
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOPosix
import NIOSSL
import NIOStack
import NetworkCore
import Reference
import Synchronization

/// What a loop is asked to do.
struct Plan: Sendable {
    var url: URL
    var cafile: String
    var count: Int
    var warmup: Int
    var inflight: Int
    var seconds: Double
    var close: Bool
    /// libcurl C: keep libcurl's session cache on with `close`, so that new connections resume.
    var resumes = false
    /// Offer HTTP/2 in ALPN (the reference stack and URLSession always do; libcurl C and AsyncHTTPClient only then).
    var http2 = false
    /// A client certificate chain and its key (PEM files), presented to a server that asks for one.
    var clientCertificate: (chain: String, key: String)?
}

/// What the timed part of one loop measured.
struct Outcome: Sendable {
    var completed = 0
    var failures = 0
    var bytes = 0
    var seconds = 0.0
    var latencies: [Double] = []  // microseconds
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Hands out request numbers below `count` until the deadline; shared by the workers of one loop.
final class Ticket: Sendable {
    let count: Int
    let deadline: Double
    private let next = Atomic<Int>(0)
    init(count: Int, seconds: Double) {
        self.count = count
        deadline = seconds > 0 ? now() + seconds : .infinity
    }
    func take() -> Bool {
        guard now() < deadline else { return false }
        return next.add(1, ordering: .relaxed).oldValue < count
    }
}

/// Runs an async body to completion from synchronous code (top-level code is on the main actor: a plain
/// `Task {}` plus a semaphore would deadlock).
final class Box<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}

func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let value = await body()
        box.value.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return box.value.withLock { $0! }
}

/// State shared between a callback loop and the completions it gets.
final class Shared: Sendable {
    let outcome = Mutex(Outcome())
    let running = Atomic<Int>(0)
    let length = Atomic<Int>(-1)
}

/// `inflight` workers, each doing one request at a time with `request` (which returns the body length, or nil
/// on failure), until the ticket runs out.
func asyncLoop(_ ticket: Ticket, inflight: Int, _ request: @escaping @Sendable () async -> Int?) async -> Outcome {
    let start = now()
    let parts = await withTaskGroup(of: Outcome.self) { group in
        for _ in 0..<max(1, inflight) {
            group.addTask {
                var part = Outcome()
                while ticket.take() {
                    let begin = now()
                    let length = await request()
                    part.latencies.append((now() - begin) * 1e6)
                    part.completed += 1
                    if let length { part.bytes += length } else { part.failures += 1 }
                }
                return part
            }
        }
        var all = [Outcome]()
        for await part in group { all.append(part) }
        return all
    }
    var outcome = Outcome()
    outcome.seconds = now() - start
    for part in parts {
        outcome.completed += part.completed
        outcome.failures += part.failures
        outcome.bytes += part.bytes
        outcome.latencies += part.latencies
    }
    return outcome
}

// MARK: Clients

func libcurl(_ plan: Plan) -> Outcome {
    var latencies = [Double](repeating: 0, count: plan.count)
    let result = latencies.withUnsafeMutableBufferPointer {
        crawcurl_run(
            plan.url.absoluteString, plan.cafile, plan.count, plan.warmup, Int32(plan.inflight), plan.close ? 1 : 0,
            plan.resumes ? 1 : 0, plan.http2 ? 1 : 0,
            plan.clientCertificate?.chain, plan.clientCertificate?.key, plan.seconds, $0.baseAddress)
    }
    return Outcome(completed: result.completed, failures: result.failures, bytes: Int(result.bytes), seconds: result.seconds,
        latencies: Array(latencies.prefix(result.completed)))
}

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

// MARK: Report

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// The CPUs this process may run on, as the kernel lists them (`Cpus_allowed_list`).
func allowedCPUs() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
    return line.map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) } ?? "?"
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// `bench`: its one subcommand, `run`, is what Scripts/bench-rounds calls.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Bounded request loops of HTTP clients, for Scripts/bench.", subcommands: [RunCommand.self])
}

/// `bench run`: one bounded request loop of one client, printed as one JSON line.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Runs one bounded request loop of one client and prints its figures as one JSON line.")

    enum Client: String, CaseIterable, ExpressibleByArgument {
        case libcurl, reference, referenceAsync = "reference-async", ahc, urlsession, nio
    }

    enum Profile: String, CaseIterable, ExpressibleByArgument {
        case strict, compatible
    }

    enum Stapling: String, CaseIterable, ExpressibleByArgument {
        case checkedWhenStapled = "checked-when-stapled", required
    }

    @Option(help: "The client: libcurl in C, the reference stack's callback or async API, AsyncHTTPClient, URLSession, or the NIO stack.")
    var client: Client

    @Option(help: "The URL to request.")
    var url: String

    @Option(help: ArgumentHelp("The PEM file of the one root to trust.", valueName: "pem"))
    var cafile: String

    @Option(help: "The most requests in the timed loop.")
    var count = 1000

    @Option(help: "Untimed requests first, on the same connections.")
    var warmup = 100

    @Option(help: "Requests in flight at once.")
    var inflight = 1

    @Option(help: "No request starts after this many seconds of the timed loop (0: no limit).")
    var seconds = 10.0

    @Flag(help: "Send Connection: close, so that every request is a new connection and a full TLS handshake.")
    var close = false

    @Flag(help: "libcurl C: keep libcurl's own TLS session cache on, so that new connections resume (off by default).")
    var resume = false

    @Flag(help: "The reference stack: never resume a TLS session (a tree that has Configuration.resumesTLSSessions).")
    var fullHandshakes = false

    @Flag(help: "Offer HTTP/2 in ALPN (the reference stack and URLSession always do).")
    var http2 = false

    @Option(help: ArgumentHelp("Pin the key of the certificate in this PEM file (the reference and NIO stacks).", valueName: "pem"))
    var pin: String?

    @Option(help: "The reference stack's validation profile (a tree that has Configuration.validationProfile).")
    var profile: Profile?

    @Option(help: ArgumentHelp("A revocation list the reference stack checks (a tree that has Configuration.revocation).", valueName: "pem"))
    var crl: String?

    @Option(help: "What the reference stack does with a stapled OCSP response (a tree that has Configuration.revocation).")
    var stapling: Stapling?

    @Option(help: ArgumentHelp("A client certificate chain to present (PEM); needs --client-key.", valueName: "pem"))
    var clientCert: String?

    @Option(help: ArgumentHelp("The client certificate's key (PEM).", valueName: "pem"))
    var clientKey: String?

    func validate() throws {
        guard target != nil else { throw ValidationError("--url needs an absolute URL, not \(url)") }
        guard count >= 0, warmup >= 0 else { throw ValidationError("--count and --warmup need 0 or more requests") }
        guard inflight >= 1 else { throw ValidationError("--inflight needs at least 1 request, not \(inflight)") }
        guard seconds >= 0, seconds.isFinite else { throw ValidationError("--seconds needs 0 or more seconds, not \(seconds)") }
        guard (clientCert == nil) == (clientKey == nil) else { throw ValidationError("--client-cert and --client-key go together") }
        #if !BENCH_VALIDATION_PROFILES
        if profile != nil, client != .nio { throw ValidationError("--profile: this tree has no Configuration.validationProfile") }
        #endif
        #if !BENCH_NIO_VALIDATION_PROFILES
        if profile != nil, client == .nio { throw ValidationError("--profile: this tree's NIO stack has no Configuration.validationProfile") }
        #endif
        #if !BENCH_RESUMPTION
        if fullHandshakes { throw ValidationError("--full-handshakes: this tree has no Configuration.resumesTLSSessions") }
        #endif
        #if !BENCH_REVOCATION
        if crl != nil || stapling != nil { throw ValidationError("--crl, --stapling: this tree has no Configuration.revocation") }
        #endif
    }

    /// The URL, when it is an absolute one.
    var target: URL? { URL(string: url).flatMap { $0.host == nil ? nil : $0 } }

    func run() throws {
        guard let target else { throw ValidationError("--url needs an absolute URL, not \(url)") }
        let plan = Plan(
            url: target, cafile: cafile, count: count, warmup: warmup, inflight: inflight, seconds: seconds, close: close, resumes: resume,
            http2: http2, clientCertificate: clientCert.map { ($0, clientKey ?? "") })
        let cpuBefore = cpuSeconds()
        let outcome: Outcome
        switch client {
        case .libcurl: outcome = libcurl(plan)
        case .reference: outcome = referenceCallbacks(try makeStack(plan, self), plan)
        case .referenceAsync: outcome = referenceAsync(try makeStack(plan, self), plan)
        case .ahc: outcome = asyncHTTPClient(plan)
        case .urlsession: outcome = urlSession(plan)
        case .nio:
            let stack = try makeNIOStack(plan, self)
            outcome = referenceCallbacks(stack, plan)
            stack.invalidateAndCancel()
        }
        let sorted = outcome.latencies.sorted()
        let fields: [String: Any] = [
            "client": client.rawValue, "completed": outcome.completed, "failures": outcome.failures, "bytes": outcome.bytes,
            "seconds": outcome.seconds, "p50_us": percentile(sorted, 0.5), "p99_us": percentile(sorted, 0.99),
            "cpus": allowedCPUs(), "cpu_seconds": cpuSeconds() - cpuBefore, "pinned": pin != nil,
            "profile": client.rawValue.hasPrefix("reference") ? profileName(self) : "-",
            "client_certificate": plan.clientCertificate != nil, "full_handshakes": fullHandshakes, "resume": resume,
        ]
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}

Bench.main()
