// One bounded request loop of one client, printed as one JSON line; Scripts/bench runs it once per
// contender and round (each in its own process, pinned to a CPU) and turns the lines into a table.
//
//   bench run --client NAME --url URL --cafile PEM [--count N] [--warmup N] [--inflight N] [--seconds S]
//             [--close] [--resume] [--full-handshakes] [--http2] [--pin PEM] [--profile strict|compatible]
//             [--client-cert PEM --client-key KEY] [--crl PEM] [--stapling checked-when-stapled|required]
//
// Clients: libcurl (C: one easy handle, or one multi handle with --inflight easy handles), reference (the
// stack's callback API), reference-async (its async API), ahc (AsyncHTTPClient), urlsession (Foundation), nio (the
// NIO stack of NIOStack/, on the callback API like reference), nio-raw (swift-nio alone: the floor of a client on it).
// `--warmup` requests run first, untimed, on the same connections; then at most `--count` requests, and
// none is started after `--seconds`. `--close` sends `Connection: close`, so every request is a new TCP
// connection: a full TLS handshake against the servers of Scripts/bench without session cache and tickets, a resumed
// one against its resumption server for a client that resumes (the reference stack by default, libcurl C with
// `--resume`; `--full-handshakes` turns the reference stack's resumption off).
import ArgumentParser
import Foundation

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
        case libcurl, reference, referenceAsync = "reference-async", ahc, urlsession, nio, nioRaw = "nio-raw"
    }

    enum Profile: String, CaseIterable, ExpressibleByArgument {
        case strict, compatible
    }

    enum Stapling: String, CaseIterable, ExpressibleByArgument {
        case checkedWhenStapled = "checked-when-stapled", required
    }

    @Option(help: "The client: libcurl in C, the reference stack's callback or async API, AsyncHTTPClient, URLSession, the NIO stack, or swift-nio alone (nio-raw: one connection, the protocol's codec, sequential only).")
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
        guard client != .nioRaw || (inflight == 1 && !close && clientCert == nil && pin == nil) else {
            throw ValidationError("--client nio-raw: one connection, sequential, no pin and no client certificate")
        }
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
        case .nioRaw: outcome = rawNIO(plan)
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
