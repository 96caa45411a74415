import Foundation
import NetworkCore

/// A server program started for one test (`openssl s_server`, nginx), stopped when the value goes away.
final class ExternalServer {
    private let process = Process()
    let port: Int

    /// Starts `executable` and waits, up to `timeout`, until `ready` finds the port it listens on in a line of its
    /// output, or until `port` accepts a connection when given.
    init(
        _ executable: String, _ arguments: [String], port known: Int? = nil, timeout: Duration = .seconds(10),
        ready: @escaping @Sendable (String) -> Int? = { _ in nil }
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let found = Found()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            // End of file: the server has exited (s_server does after its one connection); nothing more will come.
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n") { if let port = ready(String(line)) { found.set(port) } }
        }
        process.terminationHandler = { _ in found.wake() }  // a server that dies early ends the wait at once
        try process.run()
        if let known {
            // nginx says nothing when it listens: the only sign is a connection it accepts.
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline, process.isRunning, !Self.accepts(known) {
                Thread.sleep(forTimeInterval: 0.02)  // bounded by the deadline
            }
            if Self.accepts(known) { found.set(known) }
        } else {
            found.wait(until: .now() + .milliseconds(Int(timeout.inMilliseconds)))
        }
        if let port = found.value {
            self.port = port
            return
        }
        process.terminate()
        throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable])
    }

    deinit {
        (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A loopback port that was free a moment ago.
    static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// The port the server announced, and the event of its announcing (or exiting).
    private final class Found: @unchecked Sendable {
        private let lock = NSLock()
        private let event = DispatchSemaphore(value: 0)
        private var port: Int?
        var value: Int? { lock.withLock { port } }
        func set(_ port: Int) {
            lock.withLock { self.port = port }
            event.signal()
        }
        func wake() { event.signal() }
        func wait(until deadline: DispatchTime) { _ = event.wait(timeout: deadline) }
    }
}
