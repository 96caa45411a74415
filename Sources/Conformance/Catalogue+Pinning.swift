import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Pinning cases for `ServerTrustEvaluator` and `TrustManager`.
    ///
    /// PINNING CASES GO HERE once the pinning handlers are on main. Each case is data: a fixture scenario
    /// served by the MockServer, a ``HandlerSpec`` whose factory builds the handler from the fixture
    /// catalogue's pins, and the expected outcome. For example:
    ///
    /// ```swift
    /// ConformanceCase(
    ///     id: "pin.intermediate.root-not-served", title: "a pin on root A matches although the server does not send it",
    ///     section: "spec decision 8", explanation: "…", requires: [.serverTrustChallenge],
    ///     server: .tls("valid-ec256", ok()),
    ///     stack: StackSetup(handler: .serverTrustEvaluator(domain: "localhost", pins: { $0.scenario("valid-ec256")!.pin("root")! })),
    ///     expected: Expectation(success()))
    /// ```
    ///
    /// where `HandlerSpec.serverTrustEvaluator(…)` is the small factory to add (in `HandlerSpec+Pinning.swift`):
    /// `HandlerSpec(name: "ServerTrustEvaluator(…)") { fixtures in try ServerTrustEvaluator(configuration: …) }`.
    /// A refusal is expected as `Outcome(kind: .url, urlErrorCode: -1202, trustFailure: "handler:noPinMatched")`
    /// with `JournalExpectation(requests: 0, noApplicationBytes: true)` (decision 10).
    static var pinning: [ConformanceCase] {
        []
    }
}
