internal import COpenSSL
internal import COpenSSLShims
import CertificateRules
import Foundation
import Pinning

extension CertificateFacts {

    /// The facts of a DER certificate as the reference stack reads them with OpenSSL, at a depth of a chain; `nil` when
    /// OpenSSL cannot parse it. (The NIO stack reads the same facts with swift-certificates: the two readings are
    /// compared in its tests.)
    public init?(openSSLDER der: [UInt8], depth: Int) {
        guard let certificates = OwnedCertificates.parsing(der: [Data(der)]) else { return nil }
        self.init(openSSL: certificates.leaf, depth: depth)
    }

    /// The facts of one certificate of a chain OpenSSL verified, read through OpenSSL's accessors. basicConstraints,
    /// keyUsage and the authorityKeyIdentifier are decoded here rather than read from OpenSSL's cache, whose readings
    /// fall back to defaults for the whole certificate once any one extension fails to decode.
    init(openSSL x509: OpaquePointer, depth: Int) {
        let basicConstraints = Self.basicConstraints(x509)
        self.init(
            depth: depth, version: Int(X509_get_version(x509)) + 1, isCA: basicConstraints?.isCA ?? false,
            pathLengthConstraint: basicConstraints?.pathLength,
            keyUsageAllowsCertificateSigning: X509_get_ext_by_NID(x509, NID_key_usage, -1) >= 0 ? Self.keyCertSign(x509) : nil,
            serialNumber: Self.serialNumber(x509),
            publicKey: Self.publicKey(x509), extensions: Self.extensions(x509), extendedKeyUsage: Self.extendedKeyUsage(x509),
            authorityKeyIdentifierHasKeyIdentifier: X509_get_ext_by_NID(x509, NID_authority_key_identifier, -1) >= 0
                ? Self.hasKeyIdentifier(x509) : nil,
            subjectCommonNames: Self.commonNames(x509), subjectIsEmpty: X509_NAME_entry_count(X509_get_subject_name(x509)) == 0,
            issuerIsEmpty: X509_NAME_entry_count(X509_get_issuer_name(x509)) == 0,
            isSelfIssued: X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0,
            subjectAltNameIsEmpty: Self.hasEmptySubjectAltName(x509), signatureAlgorithmsMatch: Self.signatureAlgorithmsMatch(x509),
            subjectAltDNSNames: Self.subjectAltNames(x509, GEN_DNS) { ASN1Text.string($0.d.dNSName) },
            subjectAltIPAddresses: Self.subjectAltNames(x509, GEN_IPADD) { ASN1Text.bytes($0.d.iPAddress) },
            nameConstraints: NameConstraintsFacts(openSSL: x509))
    }

    /// The serial number's content octets as DER re-encodes them (minimal), or none when unreadable.
    private static func serialNumber(_ x509: OpaquePointer) -> [UInt8] {
        guard let serial = X509_get0_serialNumber(x509) else { return [] }
        let integer = UnsafeMutablePointer(mutating: serial)
        let length = i2d_ASN1_INTEGER(integer, nil)
        guard length > 2 else { return [] }
        var encoded = [UInt8](repeating: 0, count: Int(length))
        let written = encoded.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ASN1_INTEGER(integer, &cursor)
        }
        guard written == length else { return [] }
        // Tag and a one-octet length come first: longer contents need a longer length.
        return Array(encoded.dropFirst(length > 129 ? 3 : 2))
    }

    private static func publicKey(_ x509: OpaquePointer) -> PublicKeyFacts {
        guard let key = X509_get0_pubkey(x509) else { return .unreadable }
        switch EVP_PKEY_get_base_id(key) {
        case NID_rsaEncryption:
            return .rsa(bits: Int(EVP_PKEY_get_bits(key)))
        case NID_X9_62_id_ecPublicKey:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return .ec(curve: nil) }
            return .ec(curve: String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        case NID_ED25519: return .ed25519
        case NID_ED448: return .ed448
        case NID_dsa: return .dsa
        case let other: return .other(algorithm: String(cString: OBJ_nid2sn(other)))
        }
    }

    private static func extensions(_ x509: OpaquePointer) -> [ExtensionFacts] {
        (0..<X509_get_ext_count(x509)).compactMap { index in
            guard let ext = X509_get_ext(x509, index) else { return nil }
            let oid = ASN1Text.dottedOID(X509_EXTENSION_get_object(ext))
            return ExtensionFacts(
                oid: oid, isCritical: X509_EXTENSION_get_critical(ext) == 1,
                isWellFormed: !ExtensionFacts.hasJudgedEncoding(oid) || cshims_X509_EXTENSION_decodes(ext) == 1)
        }
    }

    private static func extendedKeyUsage(_ x509: OpaquePointer) -> [String]? {
        guard X509_get_ext_by_NID(x509, NID_ext_key_usage, -1) >= 0 else { return nil }
        // OpenSSL flags an undecodable extendedKeyUsage as present too: its purposes are then none.
        guard let raw = X509_get_ext_d2i(x509, NID_ext_key_usage, nil, nil) else { return [] }
        let purposes = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(purposes) }
        return (0..<OPENSSL_sk_num(purposes)).map { index in
            ASN1Text.dottedOID(OpaquePointer(OPENSSL_sk_value(purposes, index)))
        }
    }

    private static func commonNames(_ x509: OpaquePointer) -> [String?] {
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

    /// cA, and the pathLenConstraint (read as 0 beside cA=FALSE, as OpenSSL caches it); `nil` when absent or undecodable.
    private static func basicConstraints(_ x509: OpaquePointer) -> (isCA: Bool, pathLength: Int?)? {
        guard let raw = X509_get_ext_d2i(x509, NID_basic_constraints, nil, nil) else { return nil }
        let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
        defer { BASIC_CONSTRAINTS_free(constraints) }
        let isCA = constraints.pointee.ca != 0
        return (isCA, constraints.pointee.pathlen.map { isCA ? Int(ASN1_INTEGER_get($0)) : 0 })
    }

    /// Whether keyUsage has keyCertSign; `false` when it does not decode.
    private static func keyCertSign(_ x509: OpaquePointer) -> Bool {
        guard let raw = X509_get_ext_d2i(x509, NID_key_usage, nil, nil) else { return false }
        let bits = raw.assumingMemoryBound(to: ASN1_STRING.self)
        defer { ASN1_BIT_STRING_free(bits) }
        return ASN1Text.bytes(bits).first.map { $0 & UInt8(KU_KEY_CERT_SIGN) != 0 } ?? false
    }

    /// Whether the authorityKeyIdentifier carries its keyIdentifier; `false` when it does not decode.
    private static func hasKeyIdentifier(_ x509: OpaquePointer) -> Bool {
        guard let raw = X509_get_ext_d2i(x509, NID_authority_key_identifier, nil, nil) else { return false }
        let identifier = raw.assumingMemoryBound(to: AUTHORITY_KEYID.self)
        defer { AUTHORITY_KEYID_free(identifier) }
        return identifier.pointee.keyid != nil
    }

    private static func hasEmptySubjectAltName(_ x509: OpaquePointer) -> Bool {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return false }
        let names = OpaquePointer(raw)
        defer { cshims_GENERAL_NAMES_free(names) }
        return cshims_sk_GENERAL_NAME_num(names) == 0
    }

    private static func signatureAlgorithmsMatch(_ x509: OpaquePointer) -> Bool {
        var outer: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(nil, &outer, x509)
        return X509_ALGOR_cmp(outer, X509_get0_tbs_sigalg(x509)) == 0
    }

    /// The subjectAltName entries of one type, each read while the decoded extension is alive.
    private static func subjectAltNames<Value>(_ x509: OpaquePointer, _ type: Int32, _ read: (GENERAL_NAME) -> Value) -> [Value] {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return [] }
        let names = OpaquePointer(raw)
        defer { cshims_GENERAL_NAMES_free(names) }
        return (0..<cshims_sk_GENERAL_NAME_num(names)).compactMap { index in
            guard let name = cshims_sk_GENERAL_NAME_value(names, index), name.pointee.type == type else { return nil }
            return read(name.pointee)
        }
    }
}
