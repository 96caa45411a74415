import ConformanceModel
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// One soak of a subject's stack: the fetch mix, the windows of fetches in flight, the checkpoints and the verdict.
struct SoakRun {

    struct Options {
        var fetches: Int
        var seed: UInt64
        var heapBound: Int
        /// Fetches in flight at once.
        var window = 32
        /// A stack is released, with its fetches pending, after this many fetches.
        var stackLifetime = 5_000
    }

    /// What one fetch of the mix does.
    private enum Kind: CaseIterable {
        case ok, big, empty, flakyDelayed, flakyImmediate, close, reset, cutHead, cutBody, garbage, stall, cancelAtOnce, cancelLater
        case refusedStream, goAway, resetStream, hostileHTTP2

        /// Whether the fault is an HTTP/1.1 message's bytes (always plain) or an HTTP/2 frame's (always TLS).
        var protocols: Protocols {
            switch self {
            case .cutHead, .garbage: .http1
            case .refusedStream, .goAway, .resetStream, .hostileHTTP2: .http2
            default: .either
            }
        }
    }

    private enum Protocols { case http1, http2, either }

    let options: Options
    let port: Int
    let tlsPort: Int
    /// The roots that trust the TLS server.
    let roots: [String]

    /// Runs the soak; whether it passed.
    func run<Subject: ConformanceSubject>(_ subject: Subject) -> Bool {
        var stack: Subject.Stack
        do { stack = try makeStack(subject) } catch {
            print("soak: \(subject.name) could not make a stack: \(error)")
            return false
        }
        let ledger = CompletionLedger(fetches: options.fetches)
        let window = DispatchSemaphore(value: options.window)
        let canceller = DispatchQueue(label: "soak.cancel", attributes: .concurrent)
        var random = SplitMix64(seed: options.seed)
        var stacks = 1
        var checkpoint: ProcessStatus?
        var tlsFetches = 0
        let started = ContinuousClock.now
        let before = ProcessStatus.now()
        print(
            "soak: \(subject.name): \(options.fetches) fetches, \(options.window) in flight, a new stack every \(options.stackLifetime), seed \(options.seed)"
        )
        print("soak: before: \(before)")

        for index in 0..<options.fetches {
            if index > 0, index % options.stackLifetime == 0 {
                // The old one is released with its fetches pending: they complete cancelled.
                guard let next = try? makeStack(subject) else {
                    print("soak: \(subject.name) could not make stack \(stacks + 1)")
                    return false
                }
                stack = next
                stacks += 1
            }
            if index == options.fetches / 10 {
                drain(window)
                checkpoint = ProcessStatus.now()
                print("soak: after \(index) fetches: \(checkpoint!)")
            }
            guard window.wait(timeout: .now() + 60) == .success else {
                print("soak: no fetch completed for 60 s: stuck")
                return false
            }
            let kind = Kind.allCases[Int(random.next() % UInt64(Kind.allCases.count))]
            let overHTTP2 = kind.protocols == .http2 || (kind.protocols == .either && random.next() % 2 == 0)
            if overHTTP2 { tlsFetches += 1 }
            // Drawn here, from the seeded generator, so that a seed repeats the same peers.
            let peer = Int(random.next() % UInt64(SoakServer.hostilePeers.count))
            let fetch = stack.fetch(resource: resource(kind, overHTTP2: overHTTP2, peer: peer)) { _ in
                ledger.complete(index)
                window.signal()
            }
            switch kind {
            case .cancelAtOnce: fetch.cancel()
            case .cancelLater: canceller.asyncAfter(deadline: .now() + .microseconds(Int(random.next() % 2_000))) { fetch.cancel() }
            default: break
            }
        }
        let drained = drain(window)
        subject.tearDown(stack)
        let after = settled(toward: checkpoint ?? before)
        let tally = ledger.tally()
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        print(
            "soak: done in \(Int(seconds)) s with \(stacks) stacks: \(options.fetches) fetches (\(tlsFetches) over TLS, HTTP/2 where the stack offers it), \(tally.completed) completed, \(tally.lost) lost, \(tally.doubles) double"
        )
        print("soak: after: \(after)")
        return verdict(drained: drained, lost: tally.lost, doubles: tally.doubles, checkpoint: checkpoint ?? before, after: after)
    }

    /// The process's figures once the stack's teardown is over: a teardown may close connections and stop threads on
    /// the stack's own threads after it returns (the reference stack's does), so descriptors and threads are read again,
    /// for up to 5 s, until they are back within the verdict's bounds of `checkpoint`. A leak stays above them.
    private func settled(toward checkpoint: ProcessStatus) -> ProcessStatus {
        let deadline = ContinuousClock.now + .seconds(5)
        var status = ProcessStatus.now()
        while status.openFiles > checkpoint.openFiles + Self.descriptorSlack || status.threads > checkpoint.threads + Self.threadSlack,
            ContinuousClock.now < deadline
        {
            Thread.sleep(forTimeInterval: 0.05)
            status = ProcessStatus.now()
        }
        return status
    }

    /// How many more descriptors and threads than at the checkpoint the end of a run may hold.
    private static let descriptorSlack = 8
    private static let threadSlack = 8

    /// Waits until no fetch is in flight; returns whether that happened within a minute.
    @discardableResult
    private func drain(_ window: DispatchSemaphore) -> Bool {
        let deadline = DispatchTime.now() + 60
        for taken in 0..<options.window {
            guard window.wait(timeout: deadline) == .success else {
                for _ in 0..<taken { window.signal() }
                return false
            }
        }
        for _ in 0..<options.window { window.signal() }
        return true
    }

    private func verdict(drained: Bool, lost: Int, doubles: Int, checkpoint: ProcessStatus, after: ProcessStatus) -> Bool {
        var failures: [String] = []
        if !drained { failures.append("fetches still in flight a minute after the last one started") }
        if !checkpoint.isRead || !after.isRead { failures.append("the heap, /proc/self/status or both gave no memory or thread figures") }
        if lost > 0 { failures.append("\(lost) fetches never completed") }
        if doubles > 0 { failures.append("\(doubles) fetches completed more than once") }
        let growth = after.heapInUseBytes - checkpoint.heapInUseBytes
        if growth > options.heapBound {
            failures.append(
                String(
                    format: "the heap in use grew %.1f MiB after the checkpoint (bound %.1f MiB)", Double(growth) / 1_048_576,
                    Double(options.heapBound) / 1_048_576))
        }
        if after.openFiles > checkpoint.openFiles + Self.descriptorSlack {
            failures.append("descriptors grew from \(checkpoint.openFiles) to \(after.openFiles)")
        }
        if after.threads > checkpoint.threads + Self.threadSlack {
            failures.append("threads grew from \(checkpoint.threads) to \(after.threads)")
        }
        print(
            String(
                format: "soak: heap in use grew %.2f MiB after the checkpoint (bound %.1f MiB)", Double(growth) / 1_048_576,
                Double(options.heapBound) / 1_048_576))
        for failure in failures { print("soak: FAIL: \(failure)") }
        if failures.isEmpty { print("soak: PASS") }
        return failures.isEmpty
    }

    private func makeStack<Subject: ConformanceSubject>(_ subject: Subject) throws -> Subject.Stack {
        try subject.makeStack(
            for: StackEnvironment(
                authenticationChallengeHandler: nil, trustedRootFiles: roots, verificationTime: nil,
                retryQueue: DispatchQueue(label: "soak.retry")))
    }

    private func resource(_ kind: Kind, overHTTP2: Bool, peer: Int) -> Network.URLSessionResource {
        let path: String
        var interceptors: [URLSessionResourceInterceptor] = []
        var timeout: TimeInterval = 10
        switch kind {
        case .ok, .cancelAtOnce, .cancelLater: path = "/ok"
        case .big: path = "/big"
        case .empty: path = "/empty"
        case .flakyDelayed:
            path = "/flaky"
            interceptors = [Network.URLSessionRetryPolicy.backoff(.constant(delay: 0.002, until: .maxRetries(2)))]
        case .flakyImmediate:
            path = "/flaky"
            interceptors = [Network.URLSessionRetryPolicy.maxRetries(2)]
        case .close: path = "/close"
        case .reset: path = "/reset"
        case .cutHead: path = "/cut-head"
        case .cutBody: path = "/cut-body"
        case .garbage: path = "/garbage"
        case .stall:
            path = "/stall"
            timeout = 0.05
        case .refusedStream: path = "/refused"
        case .goAway: path = "/goaway"
        case .resetStream: path = "/reset-stream"
        case .hostileHTTP2:
            // A peer that floods and falls silent is ended by the timeout; one the client refuses ends sooner.
            path = "/hostile-h2/\(peer)"
            timeout = 0.2
        }
        let base = overHTTP2 ? "https://localhost:\(tlsPort)" : "http://127.0.0.1:\(port)"
        let request = URLRequest(url: URL(string: base + path)!, timeoutInterval: timeout)
        return Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) }, interceptors: interceptors)
    }
}

/// A small seeded generator, so that a run can be repeated.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
