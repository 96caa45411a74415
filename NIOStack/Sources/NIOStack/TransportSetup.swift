import NIOCore
import NIOPosix
import NIOSSL
import NetworkCore

/// What every exchange of one transport shares: its event loops, its TLS context, what it trusts and who decides.
struct TransportSetup: Sendable {
    let group: MultiThreadedEventLoopGroup
    let configuration: NIONetworkStack.Configuration
    /// Lent to each handshake; a context that cannot be made fails each `https` fetch with `secureConnectionFailed`.
    let contexts: HandshakeContexts
    let validator: ChainValidator
    let handler: (any AuthenticationChallengeHandler)?
    let pool = ConnectionPool()

    init(configuration: NIONetworkStack.Configuration, handler: (any AuthenticationChallengeHandler)?) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.configuration = configuration
        self.handler = handler
        validator = ChainValidator(
            roots: configuration.trustRoots.certificates, rootsArePublic: configuration.trustRoots.isPublic,
            profile: configuration.validationProfile,
            maximumChainDepth: configuration.maximumChainDepth, revocation: configuration.revocation)
        var tls = TLSConfiguration.makeClientConfiguration()
        // The custom callback replaces BoringSSL's checks (anything but `.none` runs it); the host name is checked by
        // the ChainValidator, and no root is needed by BoringSSL itself.
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates([])
        tls.applicationProtocols = configuration.httpVersions.applicationProtocols
        // A close sends close_notify, then NIOSSL waits for the server's before closing the socket, 5 s by default: a
        // cancelled exchange with a server that never answers would keep its connection that long (CANCEL-3). A client
        // need not wait for the server's close_notify (RFC 8446 6.1).
        tls.shutdownTimeout = .milliseconds(200)
        // BoringSSL's client leaves out P-521 and Ed25519 by default; the verifier judges keys, not the handshake.
        tls.verifySignatureAlgorithms = [
            .ecdsaSecp256R1Sha256, .ecdsaSecp384R1Sha384, .ecdsaSecp521R1Sha512, .ed25519,
            .rsaPssRsaeSha256, .rsaPssRsaeSha384, .rsaPssRsaeSha512, .rsaPkcs1Sha256, .rsaPkcs1Sha384, .rsaPkcs1Sha512,
        ]
        contexts = HandshakeContexts(configuration: tls)
    }

    func trust(host: String, port: Int) -> HandshakeTrust {
        HandshakeTrust(host: host, port: port, validator: validator, handler: handler, verificationTime: configuration.verificationTime)
    }
}
