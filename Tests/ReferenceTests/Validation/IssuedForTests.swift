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

    /// A CRL by the CA naming `revoked` (a certificate file), with these extension lines in its crlexts section.
    func revocationList(_ file: String, revoking revoked: String, extensions: [String]) throws -> String {
        let serial = try OpenSSLCommand.run(["x509", "-in", revoked, "-noout", "-serial"])
            .replacingOccurrences(of: "serial=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        let subject = try OpenSSLCommand.run(["x509", "-in", revoked, "-noout", "-subject", "-nameopt", "compat"])
            .replacingOccurrences(of: "subject=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        try "R\t21200101000000Z\t200601000000Z,keyCompromise\t\(serial)\tunknown\t\(subject)\n"
            .write(toFile: path("index.txt"), atomically: true, encoding: .utf8)
        let configuration = """
            [ca]
            default_ca = CA_default
            [CA_default]
            database = \(path("index.txt"))
            default_md = sha256
            [crlexts]
            \(extensions.joined(separator: "\n"))

            """
        try configuration.write(toFile: path("ca.cnf"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "ca", "-gencrl", "-batch", "-config", path("ca.cnf"), "-cert", caCertificate, "-keyfile", caKey, "-crlexts", "crlexts",
            "-crl_lastupdate", "20200101000000Z", "-crl_nextupdate", "21200101000000Z", "-out", path(file),
        ])
        return path(file)
    }
}
