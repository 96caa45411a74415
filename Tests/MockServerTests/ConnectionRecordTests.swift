import MockServer
import Testing

@Suite("A connection record's handshake outcome")
struct ConnectionRecordTests {
    @Test(
        "each outcome has a stable name",
        arguments: [
            (ConnectionRecord.Handshake.notTLS, "notTLS"), (.pending, "pending"), (.succeeded, "succeeded"),
            (.failed("tlsv1 alert unknown ca"), "failed(tlsv1 alert unknown ca)"),
        ])
    func stableName(handshake: ConnectionRecord.Handshake, name: String) {
        #expect(handshake.description == name)
    }

    @Test("a failure carries its reason; the other outcomes carry none")
    func failureCarriesItsReason() {
        let failed = ConnectionRecord.Handshake.failed("sslv3 alert handshake failure")
        #expect(failed.isFailed)
        #expect(failed.failureReason == "sslv3 alert handshake failure")
        #expect(failed == .failed("sslv3 alert handshake failure"))
        #expect(failed != .failed("another reason"))
        #expect(!ConnectionRecord.Handshake.succeeded.isFailed)
        #expect(ConnectionRecord.Handshake.succeeded.failureReason == nil)
    }
}
