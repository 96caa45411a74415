import Reference
import ServiceLifecycle

/// A network stack run as a swift-service-lifecycle `Service`, so that a server's `ServiceGroup` drains it on
/// shutdown like its other services: the reference stack, or any other that stops the ways every stack of the
/// package does (`StoppableNetworkStack`, the NIO stack's included).
///
/// `run()` returns once graceful shutdown was triggered and every fetch in flight (retries included) has
/// completed: new fetches fail with `URLSessionError.cancelled` from that moment on, and the stack's transport
/// thread is stopped when `run()` returns.
///
/// ```swift
/// let network = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: retryQueue)
/// let group = ServiceGroup(services: [NetworkStackService(network), httpServer], logger: logger)
/// try await group.run()
/// ```
public struct NetworkStackService<Stack: StoppableNetworkStack>: Service {

    /// The stack this service shuts down.
    public let stack: Stack

    /// Wraps a stack; the stack is usable at once, before `run()` starts.
    public init(_ stack: Stack) {
        self.stack = stack
    }

    /// Waits for graceful shutdown, then lets the fetches in flight finish and stops the stack.
    ///
    /// Cancelling the task that runs it (the group's cancellation, or a second signal) does not wait: the stack
    /// refuses new fetches and stops once the ones in flight have finished, and `run()` throws at once.
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            stack.finishFetchesAndInvalidateSession()
            throw error
        }
        await stack.shutdown()
    }
}
