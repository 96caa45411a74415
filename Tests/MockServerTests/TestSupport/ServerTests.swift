import Foundation
@testable import MockServer

/// Helpers for suites that drive a real server: each server lives as long as the test's reference to it,
/// and dropping that reference shuts it down.
protocol ServerTests {}

extension ServerTests {
    func makeServer(tls: MockServer.TLS? = nil, bindAddress: String = "127.0.0.1") throws -> MockServer {
        try MockServer(tls: tls, bindAddress: bindAddress)
    }

    func makeTLSServer(sni: Bool = false, sessionResumption: Bool = false) throws -> MockServer {
        let files = TestCertificates.shared
        var tls = MockServer.TLS(
            identity: .init(chainFile: files.servedChain, keyFile: files.leafKey),
            sessionResumption: sessionResumption)
        if sni { tls.sniIdentities = ["b.example.test": .init(chainFile: files.otherLeafOnly, keyFile: files.otherLeafKey)] }
        return try makeServer(tls: tls)
    }

    /// curl over TLS, trusting only the test root.
    func curlTLS(_ server: MockServer, _ path: String = "/", _ extra: [String] = [], maxTime: Double = 5) -> Curl.Result {
        Curl.run(server.url(path), extra, caFile: TestCertificates.shared.root, maxTime: maxTime)
    }

    /// Waits for the journal to show connection `index` closed (closing happens after the client sees the result).
    func closedRecord(_ server: MockServer, _ index: Int = 0, timeout: Double = 3) -> ConnectionRecord? {
        try? server.waitForClose(ofConnection: index, timeout: .milliseconds(Int(timeout * 1000)))
    }
}
