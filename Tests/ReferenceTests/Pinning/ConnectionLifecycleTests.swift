import Foundation
import MockServer
import Reference
import Testing

extension PinningTests {

    @Suite("Pins hold on reused and resumed connections")
    struct ConnectionLifecycle {

        @Test("a reused connection is refused before the request once the handler's pins change")
        func reusedConnectionRefused() throws {
            let handler = SwappableHandler(try evaluator([policy(pins: [Catalogue.leaf("valid-ec256")])]))
            let harness = try PinHarness(handler: handler)
            #expect(harness.fetch().success != nil)
            handler.swap(to: try evaluator([policy(pins: [Catalogue.unrelated])]))
            let failure = try #require(harness.fetch().serverTrustFailure)
            #expect(failure.reason == .noPinMatched)
            #expect(failure.detail?.contains("reused connection") == true)
            let journal = harness.server.journal
            #expect(journal.count == 1)  // the same connection: the second request never arrived on it
            #expect(journal.first?.requestCount == 1)
        }

        @Test("a new connection that resumes a session is judged with the pins now in force, and refused before its request")
        func resumedSessionRefused() throws {
            let handler = SwappableHandler(try evaluator([policy(pins: [Catalogue.intermediate("valid-ec256")])]))
            let harness = try PinHarness(sessionResumption: true, handler: handler)
            #expect(harness.fetch(closeConnection: true).success != nil)
            handler.swap(to: try evaluator([policy(pins: [Catalogue.unrelated])]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPinMatched)
            try harness.server.waitForConnections(2)
            let second = try harness.server.waitForClose(ofConnection: 1)
            #expect(second.sessionReused == true)
            #expect(second.applicationBytesReceived == 0)
            #expect(second.requestCount == 0)
        }

        @Test("a TrustManager policy removed while a connection is open refuses the next request on it")
        func trustManagerReuse() throws {
            let manager = TrustManager()
            manager.add(policy: manager.create(type: .standard, hostName: "localhost"))
            let harness = try PinHarness(handler: manager)
            #expect(harness.fetch().success != nil)
            manager.removePolicy(name: "LOCALHOST")
            #expect(harness.fetch().serverTrustFailure?.reason == .noPolicyForHost)
            #expect(harness.server.journal.count == 1)
            #expect(harness.server.journal.first?.requestCount == 1)
        }
    }
}
