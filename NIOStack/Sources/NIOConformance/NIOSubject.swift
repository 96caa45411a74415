import Conformance
import Foundation
import NIOStack

/// The conformance subject for ``NIONetworkStack``: what it cannot do is declared, so those cases are SKIP with the
/// reason rather than FAIL.
struct NIOSubject: ConformanceSubject {

    var name: String { "nio" }

    var summary: String {
        "NIONetworkStack (NIOStack package) on SwiftNIO 2.101, NIOSSL 2.37.6 (BoringSSL), swift-nio-http2 1.46, swift-certificates 1.21.1 Verifier"
    }

    var libraryVersions: [String: String] {
        ["swift-nio": "2.101", "swift-nio-ssl": "2.37.6", "swift-nio-http2": "1.46.0", "swift-certificates": "1.21.1"]
    }

    var unsupportedFeatures: [SubjectFeature: String] {
        [
            .clientCertificateIssuers: "swift-nio-ssl does not pass on the names of the CAs a server says it accepts",
            .postHandshakeClientCertificates: "BoringSSL (swift-nio-ssl) has no TLS 1.3 post-handshake authentication",
            .stapledOCSP: "swift-nio-ssl cannot ask a server for a stapled OCSP response (the NIO stack checks held revocation lists)",
            .sessionResumption: "the NIO stack makes a full handshake on every connection (swift-nio-ssl keeps no client sessions)",
        ]
    }

    func makeStack(for environment: StackEnvironment) throws -> NIONetworkStack {
        var configuration = NIONetworkStack.Configuration()
        // Only the case's roots: a case about an untrusted root must not pass thanks to the system store.
        configuration.trustRoots =
            environment.trustedRootFiles.isEmpty
            ? .only([]) : try .only(pemFiles: environment.trustedRootFiles, public: environment.trustedRootsArePublic)
        configuration.maximumChainDepth = environment.maximumChainDepth
        configuration.verificationTime = environment.verificationTime
        configuration.revocation = environment.revocation
        configuration.resolveOverrides = environment.resolveOverrides
        if let limit = environment.maximumResponseSize { configuration.maximumResponseSize = limit }
        if let limit = environment.resourceTimeout { configuration.timeoutIntervalForResource = limit }
        if let limit = environment.maximumRedirects { configuration.redirects = .follow(maximum: limit) }
        return NIONetworkStack(
            configuration: configuration, authenticationChallengeHandler: environment.authenticationChallengeHandler,
            retryQueue: environment.retryQueue)
    }

    func tearDown(_ stack: NIONetworkStack) {
        stack.finishFetchesAndInvalidateSession()
    }
}
