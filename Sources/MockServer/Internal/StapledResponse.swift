internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// The OCSP response an identity staples (RFC 6066 `status_request`), owned by its OpenSSL context.
///
/// Stapled as scripted, whatever it says: tests of a client's staple checks need a stale, revoked or foreign
/// response to reach the client unchanged.
final class StapledResponse {
    private let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Staples a file's bytes on every handshake of a context whose client asks for a status.
    static func install(file: String, on context: OpaquePointer) throws {
        guard let data = FileManager.default.contents(atPath: file), !data.isEmpty else {
            throw MockServerError(code: .tlsSetupFailed, message: "cannot read the OCSP response \(file)")
        }
        let retained = Unmanaged.passRetained(StapledResponse(bytes: Array(data))).toOpaque()
        guard SSL_CTX_set_ex_data(context, slot, retained) == 1 else {
            Unmanaged<StapledResponse>.fromOpaque(retained).release()
            throw MockServerError(code: .tlsSetupFailed, message: "cannot attach the OCSP response: \(openSSLReason())")
        }
        _ = cshims_SSL_CTX_set_tlsext_status_arg(context, retained)
        _ = cshims_SSL_CTX_set_tlsext_status_cb(context, stapleCallback)
    }

    /// The `SSL_CTX` ex-data slot that owns a context's response, released when the context is freed.
    private static let slot: Int32 = CRYPTO_get_ex_new_index(
        CRYPTO_EX_INDEX_SSL_CTX, 0, nil, nil, nil,
        { _, pointer, _, _, _, _ in
            guard let pointer else { return }
            Unmanaged<StapledResponse>.fromOpaque(pointer).release()
        })

    /// Hands OpenSSL a copy of the response, which it frees after sending it.
    private static let stapleCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, argument in
        guard let ssl, let argument else { return SSL_TLSEXT_ERR_NOACK }
        let response = Unmanaged<StapledResponse>.fromOpaque(argument).takeUnretainedValue()
        let copy = response.bytes.withUnsafeBytes { cshims_OPENSSL_memdup($0.baseAddress, $0.count) }
        guard let copy else { return SSL_TLSEXT_ERR_NOACK }
        guard cshims_SSL_set_tlsext_status_ocsp_resp(ssl, copy.assumingMemoryBound(to: UInt8.self), response.bytes.count) == 1 else {
            CRYPTO_free(copy, #fileID, #line)
            return SSL_TLSEXT_ERR_NOACK
        }
        return SSL_TLSEXT_ERR_OK
    }
}
