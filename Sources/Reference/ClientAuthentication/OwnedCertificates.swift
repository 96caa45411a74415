internal import COpenSSL
import Foundation

/// OpenSSL certificates read from PEM or DER, leaf first, freed with this object.
final class OwnedCertificates {

    /// Never empty.
    let all: [OpaquePointer]
    var leaf: OpaquePointer { all[0] }

    /// Takes ownership of parsed certificates; `nil` (freeing them) when there are none.
    init?(taking certificates: [OpaquePointer]) {
        guard !certificates.isEmpty else { return nil }
        all = certificates
    }

    /// Reads every PEM certificate of `pem`, in order.
    convenience init(pem: Data, source: String) throws(ClientIdentity.LoadingError) {
        var certificates: [OpaquePointer] = []
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        // BIO_new_mem_buf does not copy: read everything while `pem` is alive.
        withExtendedLifetime(pem) {
            while let bio, let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { certificates.append(certificate) }
        }
        BIO_free(bio)
        ERR_clear_error()  // the loop ends on a "no start line" error, which is not one
        guard let owned = OwnedCertificates(taking: certificates) else {
            throw ClientIdentity.LoadingError(code: .noCertificate, message: "\(source): no PEM certificate found")
        }
        self.init(owned)
    }

    /// Parses DER certificates, in order; `nil` if any does not parse.
    convenience init?(der: [Data]) {
        var certificates: [OpaquePointer] = []
        for encoding in der {
            let parsed = encoding.withUnsafeBytes { bytes -> OpaquePointer? in
                var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)  // d2i_X509 advances it
                return d2i_X509(nil, &cursor, bytes.count)
            }
            guard let parsed else {
                certificates.forEach { X509_free($0) }
                return nil
            }
            certificates.append(parsed)
        }
        guard let owned = OwnedCertificates(taking: certificates) else { return nil }
        self.init(owned)
    }

    private init(_ other: OwnedCertificates) {
        all = other.all
        other.released = true
    }

    private var released = false

    deinit {
        if !released { all.forEach { X509_free($0) } }
    }
}
