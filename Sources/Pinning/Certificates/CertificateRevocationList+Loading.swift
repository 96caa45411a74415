internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore

extension CertificateRevocationList {

    /// Why a revocation list could not be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// What was being read.
        public let source: String
        /// What went wrong.
        public let reason: String
        public var description: String { "cannot read revocation lists from \(source): \(reason)" }
    }

    /// Parses one DER revocation list.
    ///
    /// - Throws: ``ReadError`` if the bytes are not exactly one DER CRL, or the list breaks RFC 5280 in a way that
    ///   makes it unusable (no CRL number), or is a delta list.
    public init(der: [UInt8], source: String = "DER bytes") throws(ReadError) {
        let problem = der.withUnsafeBytes { bytes -> String? in
            guard let crl = DEREncoding.decodeWhole(bytes, with: { d2i_X509_CRL(nil, &$0, $1) }, free: X509_CRL_free) else {
                return "not one DER certificate revocation list"
            }
            defer { X509_CRL_free(crl) }
            return Self.problem(crl)
        }
        ERR_clear_error()
        if let problem { throw ReadError(source: source, reason: problem) }
        self.init(parsedDER: der)
    }

    /// Why a parsed list is refused, or `nil`. RFC 5280 5.2.3: every conforming list carries a CRL number, the only
    /// way to tell a newer list from an older one of the same issuer; a list without one is refused rather than
    /// judged as if it were current. A delta list (5.2.4) names only what changed since its base: OpenSSL, unless
    /// asked for extended list support, would take it for a whole list and let through what only the base revokes.
    private static func problem(_ crl: OpaquePointer) -> String? {
        if X509_CRL_get_ext_by_NID(crl, NID_crl_number, -1) < 0 { return "the list has no CRL number (RFC 5280 5.2.3)" }
        if X509_CRL_get_ext_by_NID(crl, NID_delta_crl, -1) >= 0 {
            return "the list is a delta list (RFC 5280 5.2.4), which names only what changed since its base: hold the base list"
        }
        return nil
    }

    /// Reads every revocation list of a PEM text (`-----BEGIN X509 CRL-----`), in order.
    ///
    /// - Throws: ``ReadError`` if the text holds no list, or a malformed one.
    public static func lists(pem: String, source: String = "PEM text") throws(ReadError) -> [CertificateRevocationList] {
        var bytes = Array(pem.utf8)
        guard let bio = BIO_new_mem_buf(&bytes, Int32(bytes.count)) else { throw ReadError(source: source, reason: "out of memory") }
        defer { BIO_free(bio) }
        var lists: [CertificateRevocationList] = []
        ERR_clear_error()
        while let crl = PEM_read_bio_X509_CRL(bio, nil, refusingPassphrase, nil) {
            defer { X509_CRL_free(crl) }
            if let problem = problem(crl) { throw ReadError(source: source, reason: "list \(lists.count + 1): \(problem)") }
            var encoded: UnsafeMutablePointer<UInt8>?
            let length = i2d_X509_CRL(crl, &encoded)
            guard length > 0, let encoded else { throw ReadError(source: source, reason: "list \(lists.count + 1) cannot be encoded") }
            defer { CRYPTO_free(encoded, #fileID, #line) }
            lists.append(CertificateRevocationList(parsedDER: Array(UnsafeBufferPointer(start: encoded, count: Int(length)))))
        }
        // The loop also ends on a malformed list: only "no start line" after the last one means the text is done.
        let error = ERR_peek_last_error()
        ERR_clear_error()
        guard cshims_ERR_GET_REASON(error) == PEM_R_NO_START_LINE else {
            throw ReadError(source: source, reason: "list \(lists.count + 1) is malformed")
        }
        guard !lists.isEmpty else { throw ReadError(source: source, reason: "no PEM revocation list found") }
        return lists
    }

    /// Reads the revocation lists of a file: PEM (any number) or a single DER list.
    public static func lists(file path: String) throws(ReadError) -> [CertificateRevocationList] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(source: path, reason: "file cannot be read") }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN X509 CRL-----") {
            return try lists(pem: text, source: path)
        }
        return [try CertificateRevocationList(der: Array(data), source: path)]
    }
}
