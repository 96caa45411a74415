import Foundation

/// DER encodings of OpenSSL objects through their `i2d_*` functions.
package enum DEREncoding {

    /// The encoding of `object`, or `nil` if it cannot be encoded.
    package static func of(
        _ object: OpaquePointer?, with encoder: (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) -> Data? {
        guard let object else { return nil }
        let length = encoder(object, nil)
        guard length > 0 else { return nil }
        var data = Data(count: Int(length))
        let written = data.withUnsafeMutableBytes { buffer -> Int32 in
            // i2d_* advances the pointer it is given, so it gets a copy.
            var cursor = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return encoder(object, &cursor)
        }
        return written == length ? data : nil
    }
}

extension DEREncoding {

    /// Decodes exactly one DER value with an OpenSSL `d2i_*` function: `nil` if it does not decode, or if bytes
    /// follow the value (`d2i_*` stops at the value's end and leaves them unread; a TLS client refuses such a
    /// certificate, so a verifier must too). The value belongs to the caller, who frees it.
    package static func decodeWhole(
        _ bytes: UnsafeRawBufferPointer, with decoder: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?,
        free: (OpaquePointer) -> Void
    ) -> OpaquePointer? {
        let start = bytes.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
        var cursor = start  // d2i_* advances it
        guard let value = decoder(&cursor, bytes.count) else { return nil }
        guard cursor == start.map({ $0 + bytes.count }) else {
            free(value)
            return nil
        }
        return value
    }
}
