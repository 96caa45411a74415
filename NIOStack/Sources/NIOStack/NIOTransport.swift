import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// NetworkCore's `FetchTransport` on SwiftNIO, NIOSSL, NIOHTTP1 and swift-nio-http2: HTTP/2 on a shared connection per
/// server when it selects `h2`, HTTP/1.1 on keep-alive connections otherwise, the server judged inside the TLS
/// handshake by the stack's `AuthenticationChallengeHandler`.
public final class NIOTransport: FetchTransport {

    private let setup: TransportSetup
    private let exchanges = Locked<(isShutDown: Bool, live: [ObjectIdentifier: Exchange])>((false, [:]))

    /// Creates a transport with its own event loop thread.
    public init(configuration: NIONetworkStack.Configuration, authenticationChallengeHandler: (any AuthenticationChallengeHandler)?) {
        setup = TransportSetup(configuration: configuration, handler: authenticationChallengeHandler)
    }

    public func send(_ request: URLRequest, completion: @escaping @Sendable (Network.TransportOutcome) -> Void) -> Cancelable {
        do {
            _ = try RequestCheck.validate(request, library: TransportErrors.library)
        } catch {
            completion(.failure(error))
            return DummyCancelable()
        }
        let box = Locked<ObjectIdentifier?>(nil)
        let exchange = Exchange(setup: setup, completion: completion) { [weak self] in
            if let id = box.withLock({ $0 }) { self?.exchanges.withLock { _ = $0.live.removeValue(forKey: id) } }
        }
        let id = ObjectIdentifier(exchange)
        box.withLock { $0 = id }
        let accepted = exchanges.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.live[id] = exchange
            return true
        }
        guard accepted else {
            completion(.failure(TransportErrors.make(.cancelled, "the transport was shut down", url: request.url)))
            return DummyCancelable()
        }
        exchange.start(request)
        return exchange
    }

    /// Completions leave the event loop, so a slow one never holds it.
    public func deliver(_ job: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: job)
    }

    public func shutDown() {
        let live = exchanges.withLock { state -> [Exchange] in
            state.isShutDown = true
            defer { state.live = [:] }
            return Array(state.live.values)
        }
        for exchange in live { exchange.cancel() }
        setup.pool.closeAll()
        setup.group.shutdownGracefully { _ in }
    }
}
