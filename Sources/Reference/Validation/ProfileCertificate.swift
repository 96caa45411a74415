internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// One certificate of a verified chain, read through OpenSSL's accessors for the profile's rules.
struct ProfileCertificate {

    /// The certificate, owned by the chain it came from.
    let x509: OpaquePointer
    /// Its depth in the chain: 0 is the leaf.
    let depth: Int

    /// OpenSSL's cached extension flags (`EXFLAG_*`).
    var extensionFlags: UInt32 { X509_get_extension_flags(x509) }

    /// Whether basicConstraints says cA=TRUE.
    var isCA: Bool { extensionFlags & UInt32(EXFLAG_CA) != 0 }

    /// Why the serial number breaks RFC 5280 4.1.2.2 (a positive integer of at most 20 octets), or `nil`.
    var serialNumberProblem: String? {
        guard let serial = X509_get0_serialNumber(x509) else { return "no serial number" }
        let encoded = i2d_ASN1_INTEGER(UnsafeMutablePointer(mutating: serial), nil)
        guard encoded > 2, let number = ASN1_INTEGER_to_BN(serial, nil) else { return "unreadable serial number" }
        defer { BN_free(number) }
        if BN_is_zero(number) != 0 { return "serial number is zero" }
        if BN_is_negative(number) != 0 { return "serial number is negative" }
        // Tag and a one-octet length come first: longer contents need a longer length.
        let contents = Int(encoded) - (encoded > 129 ? 3 : 2)
        return contents > 20 ? "serial number is \(contents) octets (at most 20)" : nil
    }

    /// Why the public key is not allowed (CA/B Forum Baseline Requirements 6.1.5, RFC 8410 for EdDSA),
    /// or `nil`.
    var keyProblem: String? {
        guard let key = X509_get0_pubkey(x509) else { return "unreadable public key" }
        let bits = EVP_PKEY_get_bits(key)
        switch EVP_PKEY_get_base_id(key) {
        case NID_rsaEncryption:
            if bits < 2048 { return "RSA key of \(bits) bits (at least 2048)" }
            if bits % 8 != 0 { return "RSA modulus of \(bits) bits (not a multiple of 8)" }
            return nil
        case NID_X9_62_id_ecPublicKey:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return "EC key on an unnamed curve" }
            let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return ["prime256v1", "secp384r1", "secp521r1"].contains(curve) ? nil : "EC key on \(curve) (P-256, P-384 or P-521 only)"
        case NID_ED25519, NID_ED448:
            return nil
        case NID_dsa:
            return "DSA key"
        case let other:
            return "key algorithm \(String(cString: OBJ_nid2sn(other)))"
        }
    }

    /// Whether the certificate has an extendedKeyUsage extension.
    var hasExtendedKeyUsage: Bool { extensionFlags & UInt32(EXFLAG_XKUSAGE) != 0 }

    /// The extendedKeyUsage purposes, as OpenSSL's `XKU_*` bits.
    var extendedKeyUsage: UInt32 { X509_get_extended_key_usage(x509) }

    /// The DNS names of the subjectAltName, as written (`nil` for one that is not a printable ASCII string).
    var subjectAltDNSNames: [String?] { subjectAltNames(GEN_DNS) { Self.string($0.d.dNSName) } }

    /// The subject's commonName values, as UTF-8 text (`nil` for one that cannot be converted).
    var subjectCommonNames: [String?] {
        guard let name = X509_get_subject_name(x509) else { return [] }
        var names: [String?] = []
        var index: Int32 = -1
        while true {
            index = X509_NAME_get_index_by_NID(name, NID_commonName, index)
            guard index >= 0 else { return names }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index)))
            guard length >= 0, let utf8 else {
                names.append(nil)
                continue
            }
            names.append(String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self))
            CRYPTO_free(utf8, #fileID, #line)
        }
    }

    /// Whether the subject is the empty name.
    var hasEmptySubject: Bool { X509_NAME_entry_count(X509_get_subject_name(x509)) == 0 }

    /// The IP addresses of the subjectAltName, as their octets.
    var subjectAltIPAddresses: [[UInt8]] { subjectAltNames(GEN_IPADD) { Self.bytes($0.d.iPAddress) } }

    /// The subjectAltName entries of one type, each read while the decoded extension is alive.
    private func subjectAltNames<Value>(_ type: Int32, _ read: (GENERAL_NAME) -> Value) -> [Value] {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return [] }
        let names = OpaquePointer(raw)
        defer { cshims_GENERAL_NAMES_free(names) }
        return (0..<cshims_sk_GENERAL_NAME_num(names)).compactMap { index in
            guard let name = cshims_sk_GENERAL_NAME_value(names, index), name.pointee.type == type else { return nil }
            return read(name.pointee)
        }
    }

    /// The criticality of each extension with this NID: empty if absent.
    func criticality(of nid: Int32) -> [Bool] {
        (0..<X509_get_ext_count(x509)).compactMap { index in
            guard let ext = X509_get_ext(x509, index), OBJ_obj2nid(X509_EXTENSION_get_object(ext)) == nid else { return nil }
            return X509_EXTENSION_get_critical(ext) == 1
        }
    }

    /// An ASN.1 string's bytes as text, or `nil` if any byte is not printable ASCII (an embedded NUL
    /// included, which would otherwise cut the name short).
    static func string(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String? {
        let raw = bytes(string)
        guard raw.allSatisfy({ (0x21...0x7e).contains($0) }) else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }

    /// An ASN.1 string's bytes.
    static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }
}
