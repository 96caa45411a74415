internal import COpenSSL
import Foundation

/// Reads OpenSSL's certificate and list times as dates.
package enum ASN1Date {

    /// The instant an `ASN1_TIME` names, or `nil` when it cannot be read.
    static func of(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// A certificate's (`X509 *`) validity period, notBefore through notAfter, or `nil` when either cannot be read.
    package static func validity(ofCertificate certificate: OpaquePointer) -> ClosedRange<Date>? {
        period(of(X509_get0_notBefore(certificate)), of(X509_get0_notAfter(certificate)))
    }

    /// A revocation list's (`X509_CRL *`) period, thisUpdate through nextUpdate (for ever without one), or `nil` when
    /// a date cannot be read.
    package static func validity(ofList list: OpaquePointer) -> ClosedRange<Date>? {
        let next = X509_CRL_get0_nextUpdate(list)
        return period(of(X509_CRL_get0_lastUpdate(list)), next == nil ? Date.distantFuture : of(next))
    }

    private static func period(_ start: Date?, _ end: Date?) -> ClosedRange<Date>? {
        guard let start, let end, start <= end else { return nil }
        return start...end
    }
}
