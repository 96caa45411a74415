#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import MockServer
import TestTraits
import Testing

/// OpenSSL's numbers, written out: the test target does not import OpenSSL.
private enum OpenSSL {
    static let errorSSL: Int32 = 1  // SSL_ERROR_SSL
    static let errorSyscall: Int32 = 5  // SSL_ERROR_SYSCALL
    static let librarySSL: Int32 = 20  // ERR_LIB_SSL
    static let librarySystem: Int32 = 2  // ERR_LIB_SYS
    static let unexpectedEOF: Int32 = 294  // SSL_R_UNEXPECTED_EOF_WHILE_READING
    static let unsupportedProtocol: Int32 = 258
    static let noSharedCipher: Int32 = 193
    static func alert(_ number: Int32) -> Int32 { 1000 + number }  // SSL_AD_REASON_OFFSET + the alert
}

@Suite("Who ended a failed TLS handshake is decided from OpenSSL's codes", .blocking)
struct HandshakeFailureTests {
    @Test(
        "an alert from the client, or its end of stream, is the client's doing",
        arguments: [
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.alert(48)),  // unknown_ca
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.alert(40)),  // handshake_failure
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.alert(0)),  // close_notify
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.unexpectedEOF),
            (OpenSSL.errorSyscall, Int32(0), Int32(0)),
            (OpenSSL.errorSyscall, OpenSSL.librarySystem, Int32(104)),  // ECONNRESET
        ])
    func clientEndedIt(sslError: Int32, library: Int32, reason: Int32) {
        #expect(HandshakeFailure.closer(sslError: sslError, library: library, reason: reason) == .client)
    }

    @Test(
        "anything else is the server refusing",
        arguments: [
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.unsupportedProtocol),
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.noSharedCipher),
            (OpenSSL.errorSSL, OpenSSL.librarySSL, OpenSSL.alert(256)),  // past the alert numbers
            (OpenSSL.errorSSL, OpenSSL.librarySystem, OpenSSL.alert(48)),  // an alert-like number from another library
        ])
    func serverEndedIt(sslError: Int32, library: Int32, reason: Int32) {
        #expect(HandshakeFailure.closer(sslError: sslError, library: library, reason: reason) == .server)
    }

    private func tlsServer(minimumVersion: MockServer.TLS.Version = .tls12) throws -> MockServer {
        let files = TestCertificates.shared
        return try MockServer(
            tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), minimumVersion: minimumVersion))
    }

    @Test("a client that rejects the chain ends the handshake with its alert, journaled as the client's close")
    func clientAlertIsTheClients() throws {
        let server = try tlsServer()
        defer { server.shutdown() }

        let result = Curl.run(server.url("/"), [], caFile: TestCertificates.shared.otherRoot)

        #expect(result.exitCode == 60, "\(result.stderr)")
        let record = try server.waitForClose(ofConnection: 0)
        #expect(record.closedBy == .client)
        #expect(record.handshake.failureReason?.contains("unknown ca") == true, "\(record.handshake)")
    }

    @Test("a server that refuses the client's versions ends the handshake, journaled as the server's close")
    func refusedVersionIsTheServers() throws {
        let server = try tlsServer(minimumVersion: .tls13)
        defer { server.shutdown() }

        let result = Curl.run(server.url("/"), ["--tls-max", "1.2"], caFile: TestCertificates.shared.root)

        #expect(result.exitCode == 35, "\(result.stderr)")
        let record = try server.waitForClose(ofConnection: 0)
        #expect(record.closedBy == .server)
        #expect(record.handshake.isFailed)
    }

    @Test("a client that hangs up in the middle of the handshake is journaled as the client's close")
    func hangUpIsTheClients() throws {
        let server = try tlsServer()
        defer { server.shutdown() }

        // A TLS record header that promises a 512-byte handshake message, then nothing.
        let fd = try RawClient.connectIdle(port: server.port)
        let partial: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01]
        _ = partial.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)

        let record = try server.waitForClose(ofConnection: 0)
        #expect(record.closedBy == .client)
        #expect(record.handshake.isFailed)
    }
}
