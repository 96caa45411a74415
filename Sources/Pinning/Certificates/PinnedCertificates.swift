internal import COpenSSL
import Foundation

/// The certificates of a pin directory, read when a ``TrustPolicy`` is created so that no file is read inside
/// a handshake.
struct PinnedCertificates: Sendable {

    /// The certificates, by file name order.
    let certificates: [ServerCertificate]

    /// Why the directory cannot be used, if it cannot; pinning policies then refuse every server.
    let problem: String?

    private static let extensions: Set<String> = ["pem", "crt", "cer", "der"]

    /// Reads a directory; `nil` gives no certificates and a problem.
    init(directory: URL?) {
        guard let directory else {
            self.init(certificates: [], problem: "no certificate directory is set (ValidationSettings.certificateDirectory)")
            return
        }
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { Self.extensions.contains($0.pathExtension.lowercased()) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            self.init(certificates: [], problem: "cannot read certificate directory \(directory.path): \(error)")
            return
        }
        var certificates: [ServerCertificate] = []
        for file in files {
            guard let data = try? Data(contentsOf: file) else {
                self.init(certificates: [], problem: "cannot read certificate file \(file.path)")
                return
            }
            let parsed = Self.parse(data)
            guard !parsed.isEmpty else {
                self.init(certificates: [], problem: "\(file.path) is not a PEM or DER certificate")
                return
            }
            certificates += parsed
        }
        guard !certificates.isEmpty else {
            self.init(certificates: [], problem: "no certificate files (.pem, .crt, .cer, .der) in \(directory.path)")
            return
        }
        self.init(certificates: certificates, problem: nil)
    }

    init(certificates: [ServerCertificate], problem: String?) {
        self.certificates = certificates
        self.problem = problem
    }

    /// The certificates of a PEM file (all of them) or a DER file.
    static func parse(_ data: Data) -> [ServerCertificate] {
        if String(decoding: data.prefix(4096), as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") {
            return (try? ServerCertificate.certificates(pem: String(decoding: data, as: UTF8.self))) ?? []
        }
        guard let certificate = X509Object(der: data) else { return [] }
        return OpenSSLCertificate.summary(of: certificate.pointer).map { [$0] } ?? []
    }
}
