internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore
import Pinning

/// A revocation policy's lists, parsed once into the OpenSSL stack that every verification of the stack's
/// connections lends to its verification context.
///
/// Built once and never changed: verification contexts only read it, so connections on any thread may share it.
final class HeldRevocationLists: @unchecked Sendable {

    let policy: RevocationPolicy
    /// The parsed lists; `nil` when the policy holds none.
    private let lists: OpaquePointer?
    /// When every held list is current (from the latest thisUpdate to the earliest nextUpdate): a verdict reached with
    /// them holds at another time of this period, as far as the lists go. `nil` when no such time exists.
    let currentPeriod: ClosedRange<Date>?

    init(_ policy: RevocationPolicy) {
        self.policy = policy
        guard !policy.revocationLists.isEmpty, let stack = cshims_sk_X509_CRL_new_null() else {
            lists = nil
            currentPeriod = Date.distantPast...Date.distantFuture
            return
        }
        for list in policy.revocationLists {
            // The loaders parsed every list already: one that fails now is left out, and a coverage that needs it
            // refuses the chain for want of a list, never accepts it.
            let parsed = list.der.withUnsafeBytes { DEREncoding.decodeWhole($0, with: { d2i_X509_CRL(nil, &$0, $1) }, free: X509_CRL_free) }
            if let parsed, cshims_sk_X509_CRL_push(stack, parsed) == 0 { X509_CRL_free(parsed) }
        }
        lists = stack
        var period: ClosedRange<Date>? = Date.distantPast...Date.distantFuture
        for index in 0..<cshims_sk_X509_CRL_num(stack) {
            guard let current = period, let list = ASN1Date.validity(ofList: cshims_sk_X509_CRL_value(stack, index)) else {
                period = nil
                break
            }
            period = current.intersection(list)
        }
        currentPeriod = period
    }

    deinit {
        if let lists { cshims_sk_X509_CRL_pop_free(lists) }
    }

    /// Whether a list issued under this name is held: a certificate whose issuer has one is never let through for
    /// want of a list, even when OpenSSL found the list unusable for it (another scope, a key identifier of another
    /// copy of the issuer).
    func holdsList(issuedBy name: OpaquePointer?) -> Bool {
        guard let lists, let name else { return false }
        return (0..<cshims_sk_X509_CRL_num(lists)).contains { index in
            X509_NAME_cmp(X509_CRL_get_issuer(cshims_sk_X509_CRL_value(lists, index)), name) == 0
        }
    }

    /// Asks a verification context to check revocation lists as the policy says, and returns what it may overlook.
    func prepare(_ store: OpaquePointer) -> ChainVerifyLeniency {
        let coverage = policy.listCoverage
        guard lists != nil || coverage != .whereHeld else { return [] }
        // The context only borrows the stack (OpenSSL's `set0` here takes no ownership), which outlives it.
        if let lists { X509_STORE_CTX_set0_crls(store, lists) }
        X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(store), UInt(X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL))
        switch coverage {
        case .whereHeld: return [.leafWithoutList, .issuerWithoutList]
        case .leaf: return .issuerWithoutList
        case .chain: return []
        }
    }
}
