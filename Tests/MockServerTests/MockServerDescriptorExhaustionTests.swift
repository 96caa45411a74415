#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import MockServer
import TestTraits
import Testing

/// Running out of file descriptors, measured in a child process: lowering `RLIMIT_NOFILE` here would starve
/// every other test of this process, which run in parallel.
@Suite("A server out of file descriptors backs off and recovers", .scaledTimeLimit(minutes: 1), .blocking)
struct MockServerDescriptorExhaustionTests {
    private static let childVariable = "MOCKSERVER_TEST_CHILD"
    private static let childMarker = "descriptor-exhaustion child:"

    @Test(
        "the accept loop neither spins nor stops serving when accept fails with EMFILE",
        arguments: [
            "descriptorExhaustionChild", "descriptorExhaustionWithoutSpareChild",
        ])
    func backsOffAndRecovers(child: String) throws {
        // The test binary itself, told by the environment to run only one child test below.
        let arguments = ["--testing-library", "swift-testing", "--filter", "\(child)\\("]
        let result = TestProcess.run(
            try #require(Bundle.main.executablePath), arguments, environment: [Self.childVariable: child])
        let report = result.stdout.split(separator: "\n").first { $0.hasPrefix(Self.childMarker) }
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(report == "\(Self.childMarker) ok", "\(result.stdout)")
    }

    /// With its spare descriptor, the server closes the connection it cannot take, at no CPU cost.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] == "descriptorExhaustionChild"))
    func descriptorExhaustionChild() throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(body: Data("recovered".utf8)))

        var fillers = try DescriptorFiller()
        // One slot for the client; the server's accept then finds the table full.
        fillers.release(1)
        let refused = try RawClient.connectIdle(port: server.port)
        defer { close(refused) }

        let before = Self.cpuSeconds()
        let closed = Self.waitForEOF(refused, milliseconds: 1000)
        let spent = Self.cpuSeconds() - before
        #expect(closed, "a connection the server cannot take must be closed, not left pending")
        #expect(spent < 0.3, "the accept loop used \(spent) s of CPU while out of descriptors")

        fillers.releaseAll()
        let reply = try RawClient.exchange(port: server.port, Array("GET / HTTP/1.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(String(decoding: reply, as: UTF8.self).hasSuffix("\r\n\r\nrecovered"))
        let passed = closed && spent < 0.3
        print("\(Self.childMarker) \(passed ? "ok" : "failed, closed \(closed), \(spent) s of CPU")")
    }

    /// Without a spare, the server backs off, leaves the connection pending, and takes it once descriptors free up.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] == "descriptorExhaustionWithoutSpareChild"))
    func descriptorExhaustionWithoutSpareChild() throws {
        let server = try MockServer(
            tls: nil, bindAddress: "127.0.0.1", port: 0, recordsRequests: true,
            maximumRequestBodySize: MockServer.defaultMaximumRequestBodySize, reservesSpareDescriptor: false)
        defer { server.shutdown() }
        server.enqueue(MockResponse(body: Data("served late".utf8), closeConnection: true))

        var fillers = try DescriptorFiller()
        fillers.release(1)
        let pending = try RawClient.connectIdle(port: server.port)
        defer { close(pending) }
        let request = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(pending, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }

        // Over this window the server can only wait: the CPU it burns is what a spin would show.
        let before = Self.cpuSeconds()
        let answeredEarly = Self.waitReadable(pending, milliseconds: 500)
        let spent = Self.cpuSeconds() - before
        #expect(!answeredEarly, "the server had no descriptor to take the connection with")
        #expect(spent < 0.15, "the accept loop used \(spent) s of CPU while out of descriptors")

        fillers.releaseAll()
        let reply = Self.readUntilEOF(pending, milliseconds: 3000)
        #expect(reply.hasSuffix("\r\n\r\nserved late"), "\(reply)")
        let passed = !answeredEarly && spent < 0.15 && reply.hasSuffix("served late")
        print("\(Self.childMarker) \(passed ? "ok" : "failed, answered early \(answeredEarly), \(spent) s of CPU, reply \(reply)")")
    }

    private static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Everything `fd` reads until end-of-file, or until the deadline.
    private static func readUntilEOF(_ fd: Int32, milliseconds: Int) -> String {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            guard waitReadable(fd, milliseconds: 50) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// User and system CPU time of the whole process, every thread included.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// True when `fd` reads end-of-file (or a reset) before the deadline.
    private static func waitForEOF(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) <= 0
    }
}

/// Fills the descriptor table under a lowered soft `RLIMIT_NOFILE`, so that the next `accept` fails with EMFILE.
private struct DescriptorFiller {
    private var descriptors: [Int32] = []

    init() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let highest = (try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).compactMap { Int32($0) }.max() ?? 0
        // Bounded: a few dozen above what is open now, whatever the hard limit.
        limit.rlim_cur = rlim_t(highest + 64)
        guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw Failure(text: "setrlimit: \(errno)") }
        while true {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                guard errno == EMFILE else { throw Failure(text: "open: \(errno)") }
                return
            }
            descriptors.append(fd)
        }
    }

    mutating func release(_ count: Int) {
        for _ in 0..<min(count, descriptors.count) { close(descriptors.removeLast()) }
    }

    mutating func releaseAll() { release(descriptors.count) }

    struct Failure: Error { let text: String }
}
