// Prints figures side by side with peers (raw libcurl, Foundation's URLSession) from one run against the
// same local server. Every loop is bounded by a request count. See Scripts/bench.
import CRawCurl
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import Synchronization

struct Options {
    var values: [String: String] = [:]
    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let key = iterator.next() {
            guard key.hasPrefix("--") else { fatalError("unexpected argument \(key)") }
            values[String(key.dropFirst(2))] = iterator.next() ?? ""
        }
    }
    subscript(_ key: String) -> String? { values[key] }
    func int(_ key: String, _ fallback: Int) -> Int { values[key].flatMap(Int.init) ?? fallback }
}

/// What one run of one client measured.
struct Row {
    var requests: Int
    var seconds: Double
    var failures: Int
    var perSecond: Double { Double(requests) / seconds }
}


/// One client in a comparison: a name and how to run one round.
struct Contender {
    var name: String
    var run: () -> Row
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func printHeader(versus: String) {
    print("client".padding(toLength: 34, withPad: " ", startingAt: 0) + "scenario".padding(toLength: 40, withPad: " ", startingAt: 0)
        + "req/s median (min-max)      " + versus.padding(toLength: 26, withPad: " ", startingAt: 0) + "failures")
}

/// Runs the contenders in turn, `rounds` times (so noise hits them alike), and prints each one's median
/// requests per second and the median of its per-round ratios to the first contender.
func compare(_ scenario: String, rounds: Int, _ all: [Contender]) {
    // `BENCH_ONLY=reference` (a name prefix) runs one contender, for profiling.
    let only = ProcessInfo.processInfo.environment["BENCH_ONLY"]
    let contenders = all.filter { only == nil || $0.name.hasPrefix(only!) }
    var perSecond = Array(repeating: [Double](), count: contenders.count)
    var failures = Array(repeating: 0, count: contenders.count)
    for _ in 0..<rounds {
        for (index, contender) in contenders.enumerated() {
            let row = contender.run()
            perSecond[index].append(row.perSecond)
            failures[index] += row.failures
        }
    }
    for (index, contender) in contenders.enumerated() {
        let values = perSecond[index]
        let ratio = index == 0 ? "-" : String(format: "%.2f", median(zip(values, perSecond[0]).map { $0 / $1 }))
        let range = String(format: "%7.0f (%.0f-%.0f)", median(values), values.min() ?? 0, values.max() ?? 0)
        print(contender.name.padding(toLength: 34, withPad: " ", startingAt: 0) + scenario.padding(toLength: 40, withPad: " ", startingAt: 0)
            + range.padding(toLength: 28, withPad: " ", startingAt: 0) + ratio.padding(toLength: 26, withPad: " ", startingAt: 0) + "\(failures[index])")
        fflush(nil)
    }
}

func peakResidentKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

// MARK: Clients

func raw(_ url: String, cafile: String?, count: Int, inflight: Int) -> Row {
    var seconds = 0.0
    let failures = inflight <= 1
        ? crawcurl_sequential(url, cafile, count, &seconds)
        : crawcurl_concurrent(url, cafile, count, Int32(inflight), &seconds)
    return Row(requests: count, seconds: seconds, failures: failures)
}

final class Counter: Sendable {
    let failures = Atomic<Int>(0)
    let done = Atomic<Int>(0)
}

func reference(_ stack: Network.URLSessionNetworkStack, _ url: URL, count: Int, inflight: Int) -> Row {
    reference(stack, URLRequest(url: url), count: count, inflight: inflight)
}

func reference(_ stack: Network.URLSessionNetworkStack, _ request: URLRequest, count: Int, inflight: Int) -> Row {
    let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })
    let counter = Counter()
    let finished = DispatchSemaphore(value: 0)
    let start = Date()
    if inflight <= 1 {
        let one = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            stack.fetch(resource: resource) { result in
                if case .failure = result { counter.failures.add(1, ordering: .relaxed) }
                one.signal()
            }
            one.wait()
        }
    } else {
        // Each completion starts the next fetch, so `inflight` fetches stay in flight until `count` are done.
        let started = Atomic<Int>(0)
        @Sendable func next() {
            guard started.add(1, ordering: .relaxed).newValue <= count else { return }
            stack.fetch(resource: resource) { result in
                if case .failure = result { counter.failures.add(1, ordering: .relaxed) }
                if counter.done.add(1, ordering: .relaxed).newValue == count { finished.signal() }
                next()
            }
        }
        for _ in 0..<inflight { next() }
        finished.wait()
    }
    return Row(requests: count, seconds: Date().timeIntervalSince(start), failures: counter.failures.load(ordering: .relaxed))
}

func foundation(_ url: URL, count: Int, inflight: Int) -> Row {
    let session = URLSession(configuration: .default)
    let counter = Counter()
    let start = Date()
    let finished = DispatchSemaphore(value: 0)
    let started = Atomic<Int>(0)
    @Sendable func next() {
        guard started.add(1, ordering: .relaxed).newValue <= count else { return }
        session.dataTask(with: url) { _, response, error in
            if error != nil || (response as? HTTPURLResponse)?.statusCode != 200 { counter.failures.add(1, ordering: .relaxed) }
            if counter.done.add(1, ordering: .relaxed).newValue == count { finished.signal() }
            next()
        }.resume()
    }
    for _ in 0..<max(1, inflight) { next() }
    finished.wait()
    session.invalidateAndCancel()
    return Row(requests: count, seconds: Date().timeIntervalSince(start), failures: counter.failures.load(ordering: .relaxed))
}

// MARK: Modes

/// New-connection handshakes per second: every request says `Connection: close`, so each one opens a
/// connection and runs a full TLS handshake (with the stack's session cache off, never resumed).
func runHandshakes(_ options: Options) throws {
    guard let urlString = options["https"], let url = URL(string: urlString), let cafile = options["cafile"],
        let intermediate = options["intermediate"]
    else { fatalError("handshakes needs --https URL --cafile PEM --intermediate PEM") }
    let count = options.int("requests", 1000)
    let inflight = options.int("inflight", 4)
    let pin = try ServerCertificate.certificates(pemFile: intermediate)[0].spkiSHA256
    let host = url.host ?? "localhost"

    let evaluator = try ServerTrustEvaluator(configuration: .init(
        pinningPolicies: [try .init(domainName: host, includeSubdomains: false, expirationDate: .distantFuture, pinnedHashes: [pin], enforceBackupPin: false)],
        certificateCheckingOrder: .leafToRoot, allowNotPinnedDomains: false, allowExpiredDomainPolicies: false))

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-pins-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.copyItem(atPath: intermediate, toPath: directory.appendingPathComponent("intermediate.pem").path)
    let manager = TrustManager()
    let settings = ValidationSettings.defaultSettings
    settings.certificateDirectory = directory
    manager.add(policy: manager.create(type: .pinPublicKey, hostName: host, settings: settings))

    var configuration = Network.URLSessionNetworkStack.Configuration()
    configuration.trustRoots = try .only(pemFiles: [cafile])
    var request = URLRequest(url: url)
    request.setValue("close", forHTTPHeaderField: "Connection")
    let handlers: [(String, (any AuthenticationChallengeHandler)?)] = [
        ("no handler", nil), ("ServerTrustEvaluator", evaluator), ("TrustManager", manager),
    ]
    let contenders = handlers.map { name, handler in
        let stack = Network.URLSessionNetworkStack(configuration: configuration, authenticationChallengeHandler: handler, retryQueue: .global())
        _ = reference(stack, request, count: 50, inflight: inflight)
        return Contender(name: "reference: \(name)") { reference(stack, request, count: count, inflight: inflight) }
    }
    printHeader(versus: "vs no handler (paired)")
    compare("new TLS connection, \(inflight) in flight", rounds: options.int("rounds", 3), contenders)
}

func runClients(_ options: Options) throws {
    let requests = options.int("requests", 5000)
    let inflight = options.int("inflight", 32)
    let rounds = options.int("rounds", 3)
    let cafile = options["cafile"]
    var configuration = Network.URLSessionNetworkStack.Configuration()
    if let cafile { configuration.trustRoots = try .only(pemFiles: [cafile]) }
    let stack = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: .global())
    printHeader(versus: "vs raw libcurl (paired)")

    for (label, urlString) in [("HTTPS", options["https"]), ("HTTP", options["http"])] {
        guard let urlString, let url = URL(string: urlString) else { continue }
        // Warm up connections and code paths, unmeasured.
        _ = raw(urlString, cafile: cafile, count: 200, inflight: 1)
        _ = reference(stack, url, count: 200, inflight: 1)
        let foundationToo = label == "HTTP" || options["foundation-https"] != nil
        for concurrency in [1, inflight] {
            let count = concurrency == 1 ? requests : requests * 2
            var contenders = [
                Contender(name: "raw libcurl (C)") { raw(urlString, cafile: cafile, count: count, inflight: concurrency) },
                Contender(name: "reference stack") { reference(stack, url, count: count, inflight: concurrency) },
            ]
            if foundationToo {
                contenders.append(Contender(name: "Foundation URLSession") { foundation(url, count: min(count, 3000), inflight: concurrency) })
            }
            compare("\(label) 1 KiB, " + (concurrency == 1 ? "sequential" : "\(concurrency) in flight"), rounds: rounds, contenders)
        }
    }
    if let large = options["large"], let url = URL(string: large) {
        let count = options.int("large-requests", 300)
        compare("HTTPS 1 MiB sequential (req/s = MiB/s)", rounds: rounds, [
            Contender(name: "raw libcurl (C)") { raw(large, cafile: cafile, count: count, inflight: 1) },
            Contender(name: "reference stack") { reference(stack, url, count: count, inflight: 1) },
        ])
    }

    if let urlString = options["https"] ?? options["http"], let url = URL(string: urlString) {
        let afterWarmup = peakResidentKiB()
        _ = reference(stack, url, count: 2_000, inflight: inflight)
        let after2k = peakResidentKiB()
        _ = reference(stack, url, count: 20_000, inflight: inflight)
        let after20k = peakResidentKiB()
        print("peak RSS (reference stack): \(afterWarmup) KiB before, \(after2k) KiB after 2,000 more requests, \(after20k) KiB after 20,000 more")
    }
}

/// Serves 1 KiB responses from a MockServer until stdin closes (or `--seconds`), for wrk.
func serve(_ options: Options) throws {
    let tls = options["chain"].map { MockServer.TLS(identity: .init(chainFile: $0, keyFile: options["key"]!)) }
    let server = try MockServer(tls: tls, port: options.int("port", 0))
    let body = Data(repeating: UInt8(ascii: "x"), count: options.int("body", 1024))
    server.dispatcher = MockDispatcher { _ in MockResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body) }
    print("port \(server.port)")
    fflush(nil)
    let seconds = options.int("seconds", 120)
    let deadline = Date().addingTimeInterval(TimeInterval(seconds))
    while Date() < deadline {
        var pollfd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        if poll(&pollfd, 1, 200) > 0 { break }  // stdin closed or written: stop
    }
    _ = server.shutdown()
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "clients": try runClients(Options(arguments.dropFirst()))
case "serve": try serve(Options(arguments.dropFirst()))
case "handshakes": try runHandshakes(Options(arguments.dropFirst()))
default:
    print("usage: bench clients --https URL [--http URL] [--cafile PEM] [--large URL] [--requests N] [--inflight N] [--rounds N] [--foundation-https yes]")
    print("       bench handshakes --https URL --cafile PEM --intermediate PEM [--requests N] [--inflight N] [--rounds N]")
    print("       bench serve [--chain PEM --key PEM] [--port N] [--body BYTES] [--seconds N]")
}
