import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Reference
import TestTraits
import Testing

/// The reference stack's client identity against servers other than the MockServer: `openssl s_server -Verify`
/// refuses in TLS, with the codes the MockServer cases expect; nginx's `ssl_verify_client on` refuses in HTTP.
@Suite("Client certificates against openssl s_server and nginx", .scaledTimeLimit(minutes: 1), .blocking)
struct ClientCertificateInteropTests {
    private static let nginx = "/usr/sbin/nginx"

    /// Fetches `https://localhost:port/` with root A trusted and `identity` presented (none when `nil`).
    private func fetch(port: Int, presenting identity: ClientIdentity?) -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError>
    {
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        let stack = Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: identity.map { ClientCertificateHandler(presenting: $0) },
            retryQueue: DispatchQueue(label: "interop.retry"))
        let request = URLRequest(url: URL(string: "https://localhost:\(port)/")!, timeoutInterval: 10)
        let resource = Network.URLSessionResource(
            baseRequestMaking: .init { $0(.success(request)) }, errorDecoding: .dummy, interceptors: [])
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        stack.fetch(resource: resource) { recorder.record($0) }
        return recorder.next()!
    }

    private func sServer(_ version: String, namingCAs: Bool = true) throws -> ExternalServer {
        try ExternalServer(
            "/usr/bin/openssl",
            [
                "s_server", "-accept", "127.0.0.1:0", "-naccept", "1", version, "-www", "-cert", Fixtures.path("valid-ec256/leaf.pem"),
                "-cert_chain", Fixtures.path("valid-ec256/intermediate-1.pem"), "-key", Fixtures.path("valid-ec256/leaf.key"), "-Verify",
                "2", "-verify_return_error",
                // -CAfile also names its CAs in the certificate request; -verifyCAfile only verifies against them.
                namingCAs ? "-CAfile" : "-verifyCAfile", Fixtures.path("roots/root-a.pem"),
            ]
        ) { line in line.hasPrefix("ACCEPT ") ? line.split(separator: ":").last.flatMap { Int($0) } : nil }
    }

    @Test(
        "openssl s_server -Verify accepts the stack's identity, and refuses none or another CA's with -1206 and -1205",
        arguments: ["-tls1_2", "-tls1_3"])
    func opensslSServer(version: String) throws {
        let accepted = try sServer(version)
        #expect(fetch(port: accepted.port, presenting: ClientIdentities.identity("client-valid")).success != nil)
        let missing = try sServer(version)
        #expect(fetch(port: missing.port, presenting: nil).urlErrorCode == .clientCertificateRequired)
        let otherCA = try sServer(version)
        #expect(
            fetch(port: otherCA.port, presenting: ClientIdentities.identity("client-other-ca")).urlErrorCode == .clientCertificateRejected)
    }

    @Test(
        "nginx with ssl_verify_client on accepts the stack's identity, and refuses the others in HTTP, with 400",
        .enabled(if: FileManager.default.isExecutableFile(atPath: nginx)))
    func nginxVerifyClient() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = ExternalServer.freePort()
        let temp = folder.path
        let configuration = """
            worker_processes 1;
            pid \(temp)/nginx.pid;
            error_log \(temp)/error.log;
            events { worker_connections 16; }
            http {
                access_log off;
                client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp); uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(Fixtures.path("valid-ec256/served.pem"));
                    ssl_certificate_key \(Fixtures.path("valid-ec256/leaf.key"));
                    ssl_client_certificate \(Fixtures.path("roots/root-a.pem"));
                    ssl_verify_client on;
                    ssl_verify_depth 2;
                    location / { return 200 "client $ssl_client_s_dn"; }
                }
            }
            """
        try configuration.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let server = try ExternalServer(
            Self.nginx,
            ["-c", folder.appendingPathComponent("nginx.conf").path, "-p", temp, "-e", "\(temp)/error.log", "-g", "daemon off;"],
            port: port)

        let accepted = fetch(port: server.port, presenting: ClientIdentities.identity("client-valid"))
        let missing = fetch(port: server.port, presenting: nil)
        let otherCA = fetch(port: server.port, presenting: ClientIdentities.identity("client-other-ca"))

        #expect(accepted.success?.value == Data("client CN=Fixture client-valid Client".utf8), "\(String(describing: accepted.failure))")
        // nginx finishes the handshake whatever the client sent, and refuses the request instead.
        guard case .failure(.http(let missingStatus, _, _)) = missing, case .failure(.http(let otherStatus, _, _)) = otherCA else {
            Issue.record("expected HTTP refusals, got \(missing) and \(otherCA)")
            return
        }
        #expect(missingStatus == .clientError(400) && otherStatus == .clientError(400))
    }

    @Test("a server that names no acceptable CA still gets the handler's answer, with an empty list", arguments: ["-tls1_2", "-tls1_3"])
    func aServerThatNamesNoCA(version: String) throws {
        let server = try sServer(version, namingCAs: false)
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity("client-valid")))
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        let stack = Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: DispatchQueue(label: "interop.retry"))
        let request = URLRequest(url: URL(string: "https://localhost:\(server.port)/")!, timeoutInterval: 10)
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()

        stack.fetch(resource: Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })) { recorder.record($0) }

        #expect(recorder.next()?.success != nil)
        #expect(handler.challenges.map(\.acceptableIssuers) == [[]])
    }
}
