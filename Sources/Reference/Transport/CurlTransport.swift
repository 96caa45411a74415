import Foundation
import Logging
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reference stack's transport: libcurl's multi interface on one thread, TLS judged inside the handshake.
final class CurlTransport: FetchTransport {

    private let loop: CurlMultiLoop
    private let trust: TLSTrustContext
    private let configuration: Network.URLSessionNetworkStack.Configuration
    private var logger: Logger { configuration.logger }

    init(
        configuration: Network.URLSessionNetworkStack.Configuration, handler: (any AuthenticationChallengeHandler)?,
        metrics: StackMetrics? = nil
    ) {
        self.configuration = configuration
        loop = CurlMultiLoop(maximumConnectionsPerHost: max(0, configuration.maximumConnectionsPerHost ?? 0))
        trust = TLSTrustContext(
            roots: configuration.trustRoots, handler: handler,
            verificationTime: configuration.verificationTime, logger: configuration.logger, metrics: metrics,
            profileCheck: ServerCertificateProfileCheck(
                profile: configuration.validationProfile, maximumChainDepth: configuration.maximumChainDepth),
            revocation: configuration.revocation, resumesSessions: configuration.resumesTLSSessions)
    }

    func send(_ request: URLRequest, completion: @escaping @Sendable (Network.TransportOutcome) -> Void) -> Cancelable {
        let started = ContinuousClock.now
        let logged: @Sendable (Network.TransportOutcome) -> Void = { [logger] outcome in
            Self.log(outcome, of: request, after: ContinuousClock.now - started, to: logger)
            completion(outcome)
        }
        do {
            // An unsupported URL and header injection are refused before libcurl sees anything.
            let url = try RequestCheck.validate(request, library: "Reference")
            let transfer = try CurlTransfer(
                request: request, url: url, trust: trust, configuration: configuration, loop: loop, completion: logged)
            loop.submit(transfer)
            return transfer
        } catch {
            return fail(error, logged)
        }
    }

    /// Fails an attempt that never reached libcurl, on the loop thread like every other outcome.
    private func fail(_ error: URLError, _ completion: @escaping @Sendable (Network.TransportOutcome) -> Void) -> Cancelable {
        loop.execute { completion(.failure(error)) }
        return DummyCancelable()
    }

    func deliver(_ job: @escaping @Sendable () -> Void) {
        if loop.isOnLoopThread { job() } else { loop.execute(job) }
    }

    func shutDown() {
        loop.stop()
    }

    private static func log(_ outcome: Network.TransportOutcome, of request: URLRequest, after elapsed: Duration, to logger: Logger) {
        guard logger.logLevel <= .debug else { return }
        var metadata: Logger.Metadata = [
            "method": "\(request.httpMethod ?? "GET")", "url": "\(request.url?.absoluteString ?? "")", "elapsed": "\(elapsed)",
        ]
        switch outcome {
        case .response(let response, _):
            metadata["status"] = "\(response.statusCode)"
            logger.debug("request completed", metadata: metadata)
        case .noHTTPResponse(let response):
            metadata["interim status"] = "\((response as? HTTPURLResponse)?.statusCode ?? 0)"
            logger.debug("no final response", metadata: metadata)
        case .failure(let error):
            metadata["error"] = "\(error.code.rawValue)"
            logger.debug("request failed", metadata: metadata)
        }
    }
}
