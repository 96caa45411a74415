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
