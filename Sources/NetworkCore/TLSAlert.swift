/// TLS alert descriptions, as RFC 8446 §6 names them.
public enum TLSAlert {

    private static let names: [Int32: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 40: "handshake_failure", 42: "bad_certificate",
        43: "unsupported_certificate", 44: "certificate_revoked", 45: "certificate_expired", 46: "certificate_unknown",
        47: "illegal_parameter", 48: "unknown_ca", 49: "access_denied", 50: "decode_error", 51: "decrypt_error",
        70: "protocol_version", 71: "insufficient_security", 80: "internal_error", 109: "missing_extension",
        116: "certificate_required",
    ]

    /// An alert's name (`certificate_required`), or `alert N` for one this table lacks.
    public static func name(_ description: Int32) -> String {
        names[description] ?? "alert \(description)"
    }
}
