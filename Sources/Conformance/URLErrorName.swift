import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Names of the `URLError` codes reports show, so `-1202` reads `serverCertificateUntrusted (-1202)`.
enum URLErrorName {

    static let names: [Int: String] = [
        -1: "unknown", -999: "cancelled", -1000: "badURL", -1001: "timedOut", -1002: "unsupportedURL",
        -1003: "cannotFindHost", -1004: "cannotConnectToHost", -1005: "networkConnectionLost",
        -1007: "httpTooManyRedirects", -1008: "resourceUnavailable", -1009: "notConnectedToInternet",
        -1011: "badServerResponse", -1014: "zeroByteResource", -1015: "cannotDecodeRawData",
        -1016: "cannotDecodeContentData", -1017: "cannotParseResponse", -1103: "dataLengthExceedsMaximum",
        -1200: "secureConnectionFailed", -1201: "serverCertificateHasBadDate", -1202: "serverCertificateUntrusted",
        -1203: "serverCertificateHasUnknownRoot", -1204: "serverCertificateNotYetValid",
        -1205: "clientCertificateRejected", -1206: "clientCertificateRequired", -2000: "cannotLoadFromNetwork",
    ]

    static func describe(_ code: Int) -> String {
        "\(names[code] ?? "code") (\(code))"
    }
}
