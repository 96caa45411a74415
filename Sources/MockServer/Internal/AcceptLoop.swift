#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The listener thread: accepts connections and starts a thread for each, until shutdown.
///
/// When the descriptor table is full, `accept` fails while the connection stays pending, so the listener stays
/// readable and a naive loop spins at full CPU, serving nobody. The loop keeps one spare descriptor: it gives
/// it up to accept the pending connection and close it at once (the client sees a close, not a hang), then
/// takes it back. Without a spare, it backs off instead, and tries again once descriptors free up.
struct AcceptLoop {
    let core: ServerCore
    let listener: Int32
    /// Opened by the caller before the thread starts, so that it exists before anything can fill the table.
    let reservedSpare: Int32
    /// Signalled once the listening socket is closed.
    let listenerClosed: DispatchSemaphore

    /// How long to wait before retrying when no descriptor is free at all.
    static let backOff: Duration = .milliseconds(50)

    func run() {
        var spare = reservedSpare
        defer {
            if spare >= 0 { close(spare) }
            close(listener)
            listenerClosed.signal()
            core.threadFinished()
        }
        // Polls with a short timeout so that shutdown is noticed within 50 ms.
        while !core.isShuttingDown {
            guard Socket.waitReadable(listener, milliseconds: 50) else { continue }
            if spare < 0 { spare = Socket.openSpare() }
            switch Socket.accept(listener) {
            case .accepted(let fd):
                guard start(fd) else { return }
            case .nothing:
                continue
            case .outOfDescriptors:
                if spare >= 0 {
                    close(spare)
                    if case .accepted(let fd) = Socket.accept(listener) { close(fd) }
                    spare = Socket.openSpare()
                    if spare >= 0 { continue }
                }
                // Shutdown cuts the back-off short.
                guard core.sleep(Self.backOff) else { return }
            }
        }
    }

    /// Registers the connection and serves it on its own thread; false when shutdown began.
    private func start(_ fd: Int32) -> Bool {
        guard let index = core.register(socket: fd, peerPort: Socket.peerPort(fd)) else {
            close(fd)
            return false
        }
        let core = self.core
        let thread = Thread {
            Connection(core: core, index: index, fd: fd).run()
        }
        thread.name = "MockServer.connection:\(index)"
        thread.start()
        return true
    }
}
