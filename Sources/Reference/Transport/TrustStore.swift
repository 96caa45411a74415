internal import CCurl
internal import CShims
internal import COpenSSL
import Foundation
import NetworkCore
import Pinning

/// The roots a stack trusts, parsed once into one OpenSSL `X509_STORE` that every connection of the stack
/// shares: a handshake looks roots up, it never parses them again.
///
/// Built once and never changed afterwards; OpenSSL locks the store's own lookups, so connections on any
/// thread may share it.
final class TrustStore: @unchecked Sendable {

    /// The store, or why it could not be built (every HTTPS transfer then fails, unverified by nobody).
    let store: Result<OpaquePointer, TransportFailure>

    /// The DER of each root a user added as private (``TrustRoots/additionalPEM``): a chain that ends at one of
    /// them is not held to the Baseline Requirements.
    let privateAnchors: PrivateAnchors

    init(roots: TrustRoots) {
        var privateRoots: Set<[UInt8]> = []
        store = Self.makeStore(roots, privateRoots: &privateRoots)
        privateAnchors = PrivateAnchors(der: privateRoots)
    }

    deinit {
        if case .success(let store) = store { X509_STORE_free(store) }
    }

    private static func makeStore(_ roots: TrustRoots, privateRoots: inout Set<[UInt8]>) -> Result<OpaquePointer, TransportFailure> {
        guard let store = X509_STORE_new() else { return .failure(failure("X509_STORE_new failed")) }
        do {
            if roots.includesSystemRoots { try loadSystemRoots(into: store) }
            if !roots.publicPEM.isEmpty { _ = try load(pem: roots.publicPEM, into: store) }
            if !roots.additionalPEM.isEmpty { privateRoots = try load(pem: roots.additionalPEM, into: store) }
            return .success(store)
        } catch {
            X509_STORE_free(store)
            return .failure(error)
        }
    }

    /// The system's roots where this libcurl was built to find them (Debian: a bundle file and a hashed folder).
    private static func loadSystemRoots(into store: OpaquePointer) throws(TransportFailure) {
        let easy: CurlEasy
        do { easy = try CurlEasy(from: CurlEasyPool()) } catch { throw error.transportFailure }
        // CURLINFO_CAINFO and CURLINFO_CAPATH (CURLINFO_STRING + 61 and + 62) do not reach Swift's importer.
        let file = easy.string(CURLINFO(rawValue: UInt32(CURLINFO_STRING) + 61))
        let path = easy.string(CURLINFO(rawValue: UInt32(CURLINFO_STRING) + 62))
        guard file != nil || path != nil else { throw failure("this libcurl names no system trust store") }
        if let file, X509_STORE_load_file(store, file) != 1 { throw failure("cannot load the system roots from \(file)") }
        if let path, X509_STORE_load_path(store, path) != 1 { throw failure("cannot use the system roots in \(path)") }
    }

    /// Adds every certificate of a PEM text to the store and returns their DER encodings.
    private static func load(pem: String, into store: OpaquePointer) throws(TransportFailure) -> Set<[UInt8]> {
        let bytes = Array(pem.utf8)
        let loaded = bytes.withUnsafeBytes { buffer -> Set<[UInt8]>? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            var encodings: Set<[UInt8]> = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(certificate) }
                guard X509_STORE_add_cert(store, certificate) == 1, let der = DEREncoding.of(certificate, with: i2d_X509).map(Array.init)
                else {
                    return nil
                }
                encodings.insert(der)
            }
            ERR_clear_error()  // the read that ends the loop leaves "no start line" behind
            return encodings
        }
        guard let loaded, !loaded.isEmpty else { throw failure("the trust roots hold no certificate OpenSSL can load") }
        return loaded
    }

    private static func failure(_ message: String) -> TransportFailure {
        TransportFailure(library: "OpenSSL", code: Int(ERR_peek_last_error()), message: message)
    }
}
