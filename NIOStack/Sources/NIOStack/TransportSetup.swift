import NIOCore
import NIOPosix
import NIOSSL
import NetworkCore

/// What every exchange of one transport shares: its event loops, its TLS context, what it trusts and who decides.
struct TransportSetup: Sendable {
    let group: MultiThreadedEventLoopGroup
    let configuration: NIONetworkStack.Configuration
    /// Made once; a context that could not be made fails each `https` fetch with `secureConnectionFailed`.
    let sslContext: Result<NIOSSLContext, any Error>
    let validator: ChainValidator
    let handler: (any AuthenticationChallengeHandler)?

    init(configuration: NIONetworkStack.Configuration, handler: (any AuthenticationChallengeHandler)?) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.configuration = configuration
        self.handler = handler
        validator = ChainValidator(roots: configuration.trustRoots.certificates)
        var tls = TLSConfiguration.makeClientConfiguration()
        // The custom callback replaces BoringSSL's checks (anything but `.none` runs it); the host name is checked by
        // the ChainValidator, and no root is needed by BoringSSL itself.
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates([])
        tls.applicationProtocols = ["http/1.1"]
        sslContext = Result { try NIOSSLContext(configuration: tls) }
    }

    func trust(host: String, port: Int) -> HandshakeTrust {
        HandshakeTrust(host: host, port: port, validator: validator, handler: handler, verificationTime: configuration.verificationTime)
    }
}
