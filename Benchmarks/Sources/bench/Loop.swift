import Dispatch
import Foundation
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
