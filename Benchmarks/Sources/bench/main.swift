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

struct Row {
    var client: String
    var scenario: String
    var requests: Int
    var seconds: Double
    var failures: Int
    var perSecond: Double { Double(requests) / seconds }
}

func printRows(_ rows: [Row], baseline: (Row) -> Row?, versus: String = "vs raw libcurl") {
    print("client".padding(toLength: 34, withPad: " ", startingAt: 0) + "scenario".padding(toLength: 44, withPad: " ", startingAt: 0)
        + "requests   seconds      req/s " + versus.padding(toLength: 16, withPad: " ", startingAt: 0) + " failures")
    for row in rows {
        let ratio = baseline(row).map { String(format: "%.2f", row.perSecond / $0.perSecond) } ?? "-"
        print(row.client.padding(toLength: 34, withPad: " ", startingAt: 0) + row.scenario.padding(toLength: 44, withPad: " ", startingAt: 0)
            + String(format: "%8d %9.3f %10.0f %16@ %9d", row.requests, row.seconds, row.perSecond, ratio as NSString, row.failures))
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
    return Row(client: "raw libcurl (C)", scenario: "", requests: count, seconds: seconds, failures: failures)
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
    return Row(client: "reference stack", scenario: "", requests: count, seconds: Date().timeIntervalSince(start), failures: counter.failures.load(ordering: .relaxed))
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
    return Row(client: "Foundation URLSession", scenario: "", requests: count, seconds: Date().timeIntervalSince(start), failures: counter.failures.load(ordering: .relaxed))
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
    var rows: [Row] = []
    let handlers: [(String, (any AuthenticationChallengeHandler)?)] = [
        ("no handler", nil), ("ServerTrustEvaluator", evaluator), ("TrustManager", manager),
    ]
    for (name, handler) in handlers {
        let stack = Network.URLSessionNetworkStack(configuration: configuration, authenticationChallengeHandler: handler, retryQueue: .global())
        _ = reference(stack, request, count: 50, inflight: inflight)
        var row = reference(stack, request, count: count, inflight: inflight)
        row.client = "reference: \(name)"
        row.scenario = "new TLS connection per request, \(inflight) in flight"
        rows.append(row)
    }
    printRows(rows, baseline: { row in row.client == rows[0].client ? nil : rows[0] }, versus: "vs no handler")
}

func runClients(_ options: Options) throws {
    let requests = options.int("requests", 5000)
    let inflight = options.int("inflight", 32)
    let cafile = options["cafile"]
    var configuration = Network.URLSessionNetworkStack.Configuration()
    if let cafile { configuration.trustRoots = try .only(pemFiles: [cafile]) }
    let stack = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: .global())
    var rows: [Row] = []
    let only = options["only"]
    func add(_ client: String, _ scenario: String, _ run: () -> Row) {
        // `--only raw|reference|foundation` runs one client (for profiling).
        if let only, client != only { return }
        var row = run(); row.scenario = scenario; rows.append(row); fflush(nil)
    }

    for (label, urlString) in [("HTTPS", options["https"]), ("HTTP", options["http"])] {
        guard let urlString, let url = URL(string: urlString) else { continue }
        // Warm up connections and code paths, unmeasured.
        _ = raw(urlString, cafile: cafile, count: 200, inflight: 1)
        _ = reference(stack, url, count: 200, inflight: 1)
        add("raw", "\(label) 1 KiB sequential") { raw(urlString, cafile: cafile, count: requests, inflight: 1) }
        add("reference", "\(label) 1 KiB sequential") { reference(stack, url, count: requests, inflight: 1) }
        if label == "HTTP" || options["foundation-https"] != nil {
            add("foundation", "\(label) 1 KiB sequential") { foundation(url, count: min(requests, 3000), inflight: 1) }
        }
        add("raw", "\(label) 1 KiB, \(inflight) in flight") { raw(urlString, cafile: cafile, count: requests * 2, inflight: inflight) }
        add("reference", "\(label) 1 KiB, \(inflight) in flight") { reference(stack, url, count: requests * 2, inflight: inflight) }
        if label == "HTTP" || options["foundation-https"] != nil {
            add("foundation", "\(label) 1 KiB, \(inflight) in flight") { foundation(url, count: min(requests * 2, 6000), inflight: inflight) }
        }
    }
    if let large = options["large"], let url = URL(string: large) {
        let count = options.int("large-requests", 300)
        add("raw", "HTTPS 1 MiB sequential") { raw(large, cafile: cafile, count: count, inflight: 1) }
        add("reference", "HTTPS 1 MiB sequential") { reference(stack, url, count: count, inflight: 1) }
    }
    printRows(rows, baseline: { row in rows.first { $0.client == "raw libcurl (C)" && $0.scenario == row.scenario && row.client != $0.client } })
    for row in rows where row.scenario.contains("1 MiB") {
        print(String(format: "%@ %@: %.0f MiB/s", row.client, row.scenario, row.perSecond))
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
    print("usage: bench clients --https URL [--http URL] [--cafile PEM] [--large URL] [--requests N] [--inflight N] [--foundation-https yes]")
    print("       bench handshakes --https URL --cafile PEM --intermediate PEM [--requests N] [--inflight N]")
    print("       bench serve [--chain PEM --key PEM] [--port N] [--body BYTES] [--seconds N]")
}
