import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError.Code {

    /// The code's name in Foundation (`timedOut`, `serverCertificateUntrusted`), or its number when Foundation has
    /// none: the reports' and the metrics' one spelling of a code (a name reads better than `-1001`, and stays the
    /// same across platforms).
    package var name: String {
        switch self {
        case .unknown: return "unknown"
        case .cancelled: return "cancelled"
        case .badURL: return "badURL"
        case .timedOut: return "timedOut"
        case .unsupportedURL: return "unsupportedURL"
        case .cannotFindHost: return "cannotFindHost"
        case .cannotConnectToHost: return "cannotConnectToHost"
        case .networkConnectionLost: return "networkConnectionLost"
        case .dnsLookupFailed: return "dnsLookupFailed"
        case .httpTooManyRedirects: return "httpTooManyRedirects"
        case .resourceUnavailable: return "resourceUnavailable"
        case .notConnectedToInternet: return "notConnectedToInternet"
        case .redirectToNonExistentLocation: return "redirectToNonExistentLocation"
        case .badServerResponse: return "badServerResponse"
        case .userCancelledAuthentication: return "userCancelledAuthentication"
        case .userAuthenticationRequired: return "userAuthenticationRequired"
        case .zeroByteResource: return "zeroByteResource"
        case .cannotDecodeRawData: return "cannotDecodeRawData"
        case .cannotDecodeContentData: return "cannotDecodeContentData"
        case .cannotParseResponse: return "cannotParseResponse"
        case .appTransportSecurityRequiresSecureConnection: return "appTransportSecurityRequiresSecureConnection"
        case .fileDoesNotExist: return "fileDoesNotExist"
        case .fileIsDirectory: return "fileIsDirectory"
        case .noPermissionsToReadFile: return "noPermissionsToReadFile"
        case .dataLengthExceedsMaximum: return "dataLengthExceedsMaximum"
        case .secureConnectionFailed: return "secureConnectionFailed"
        case .serverCertificateHasBadDate: return "serverCertificateHasBadDate"
        case .serverCertificateUntrusted: return "serverCertificateUntrusted"
        case .serverCertificateHasUnknownRoot: return "serverCertificateHasUnknownRoot"
        case .serverCertificateNotYetValid: return "serverCertificateNotYetValid"
        case .clientCertificateRejected: return "clientCertificateRejected"
        case .clientCertificateRequired: return "clientCertificateRequired"
        case .cannotLoadFromNetwork: return "cannotLoadFromNetwork"
        case .cannotCreateFile: return "cannotCreateFile"
        case .cannotOpenFile: return "cannotOpenFile"
        case .cannotCloseFile: return "cannotCloseFile"
        case .cannotWriteToFile: return "cannotWriteToFile"
        case .cannotRemoveFile: return "cannotRemoveFile"
        case .cannotMoveFile: return "cannotMoveFile"
        case .downloadDecodingFailedMidStream: return "downloadDecodingFailedMidStream"
        case .downloadDecodingFailedToComplete: return "downloadDecodingFailedToComplete"
        case .internationalRoamingOff: return "internationalRoamingOff"
        case .callIsActive: return "callIsActive"
        case .dataNotAllowed: return "dataNotAllowed"
        case .requestBodyStreamExhausted: return "requestBodyStreamExhausted"
        case .backgroundSessionRequiresSharedContainer: return "backgroundSessionRequiresSharedContainer"
        case .backgroundSessionInUseByAnotherProcess: return "backgroundSessionInUseByAnotherProcess"
        case .backgroundSessionWasDisconnected: return "backgroundSessionWasDisconnected"
        @unknown default: return "\(rawValue)"
        }
    }
}
