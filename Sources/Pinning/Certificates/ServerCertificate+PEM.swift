internal import COpenSSL
import Foundation

extension ServerCertificate {

    /// Why certificates could not be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible, LocalizedError {
        /// What was being read.
        public let source: String
        /// What went wrong.
        public let reason: String
        public var description: String { "cannot read certificates from \(source): \(reason)" }

        /// The ``description``.
        public var errorDescription: String? { description }

        package init(source: String, reason: String) {
            self.source = source
            self.reason = reason
        }
    }

    /// Reads every certificate of a PEM text, in order, with its SPKI pin computed the way the stack computes
    /// it during a handshake.
    ///
    /// - Throws: ``ReadError`` if the text holds no certificate, or a malformed one.
    public static func certificates(pem: String, source: String = "PEM text") throws -> [ServerCertificate] {
        var bytes = Array(pem.utf8)
        guard let bio = BIO_new_mem_buf(&bytes, Int32(bytes.count)) else { throw ReadError(source: source, reason: "out of memory") }
        defer { BIO_free(bio) }
        var certificates: [ServerCertificate] = []
        while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
            defer { X509_free(x509) }
            guard let summary = OpenSSLCertificate.summary(of: x509) else {
                throw ReadError(source: source, reason: "certificate \(certificates.count + 1) cannot be encoded")
            }
            certificates.append(summary)
        }
        ERR_clear_error()  // the loop ends on a "no start line" error, which is not one
        guard !certificates.isEmpty else { throw ReadError(source: source, reason: "no PEM certificate found") }
        return certificates
    }

    /// Reads every certificate of a PEM file; see ``certificates(pem:source:)``.
    public static func certificates(pemFile path: String) throws -> [ServerCertificate] {
        let contents: Data
        do {
            contents = try FileContents.read(path)
        } catch {
            throw ReadError(source: path, reason: error == .folder ? "it is a folder, not a PEM file" : error.description)
        }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw ReadError(source: path, reason: "not PEM text (a DER file? convert it with openssl x509 -inform der)")
        }
        return try certificates(pem: text, source: path)
    }
}
