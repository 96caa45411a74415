import Foundation

/// Certificates and revocation lists made for one test with the `openssl` tool, in a scratch folder removed with it,
/// by a fixture CA (its certificate and key in `Fixtures/certs/<scenario>/`).
final class IssuedForTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("issued-\(UUID().uuidString)")
    private let caCertificate: String
    private let caKey: String

    init(by scenario: String, ca: String = "intermediate-1") throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        caCertificate = Fixtures.path("\(scenario)/\(ca).pem")
        caKey = Fixtures.path("\(scenario)/\(ca).key")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    /// A localhost server certificate with these extra extension lines (openssl config syntax), in `file`.
    func leaf(_ file: String, extensions: [String]) throws -> String {
        let key = path("\(file).key")
        try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        try OpenSSLCommand.run(["req", "-new", "-key", key, "-subj", "/CN=localhost", "-out", path("\(file).csr")])
        let lines =
            [
                "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=serverAuth",
                "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid:always", "subjectAltName=DNS:localhost",
            ] + extensions
        try (lines.joined(separator: "\n") + "\n").write(toFile: path("\(file).ext"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "x509", "-req", "-in", path("\(file).csr"), "-CA", caCertificate, "-CAkey", caKey, "-set_serial", "4243", "-days", "36500",
            "-extfile", path("\(file).ext"), "-out", path(file),
        ])
        return path(file)
    }
}
