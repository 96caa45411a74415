internal import COpenSSL
import Foundation
import Pinning

/// The roots a user added as private, by their DER encoding: whether a verified chain's trust anchor is one of them
/// picks the profile's rules for it (``ValidationProfile/rulesForPrivateRoots``). Every other anchor came from the
/// system's store or from roots named public.
///
/// The encodings are kept as byte arrays, not `Data`: a stack's trust store lives as long as the stack, and
/// LeakSanitizer cannot follow `Data`'s tagged storage references (the fuzz targets run under it).
struct PrivateAnchors: Sendable {
    let der: Set<[UInt8]>

    /// Whether a trust anchor is public: not one of the private roots.
    func isPublic(_ anchor: OpaquePointer) -> Bool {
        guard !der.isEmpty else { return true }
        // An anchor that cannot be encoded is taken as public, whose rules are the stricter set of a stock profile.
        return DEREncoding.of(anchor, with: i2d_X509).map { !der.contains(Array($0)) } ?? true
    }
}
