import CCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The table from libcurl's result codes to the `URLError` codes Apple's `URLSession` gives for the same
/// failure (spec decision 4). `docs/urlerror-mapping.md` lists it for users.
enum URLErrorMapping {

    static func code(for code: CURLcode, failure: TransportFailure) -> URLError.Code {
        if let refusal = failure.serverTrustFailure {
            // A handler refusing a chain that is out of date says so with the date codes, as standard validation does.
            if case .chainNotTrusted(let chain) = refusal.reason {
                if chain.kind == .expired { return .serverCertificateHasBadDate }
                if chain.kind == .notYetValid { return .serverCertificateNotYetValid }
            }
            return .serverCertificateUntrusted
        }
        if let chain = failure.chainValidationFailure {
            switch chain.kind {
            case .expired: return .serverCertificateHasBadDate
            case .notYetValid: return .serverCertificateNotYetValid
            default: return .serverCertificateUntrusted
            }
        }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // libcurl says this both for a scheme it lacks ("Protocol \"ftp\" not supported") and for a
            // reply that is not HTTP ("Received HTTP/0.9", "Unsupported response code in HTTP response").
            return failure.message.contains("not supported") ? .unsupportedURL : .badServerResponse
        case CURLE_URL_MALFORMAT: return .badURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CIPHER, CURLE_SSL_CERTPROBLEM, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_SHUTDOWN_FAILED:
            return .secureConnectionFailed
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_ISSUER_ERROR:
            return .serverCertificateUntrusted
        case CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE:
            return .secureConnectionFailed  // the client's own trust configuration is broken, not the server's certificate
        case CURLE_RECV_ERROR where failure.message.localizedCaseInsensitiveContains("chunk"):
            return .badServerResponse  // a malformed chunked body is a bad reply, not a lost connection
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP3: return .badServerResponse
        case CURLE_TOO_MANY_REDIRECTS: return .httpTooManyRedirects
        case CURLE_FILESIZE_EXCEEDED: return .dataLengthExceedsMaximum
        case CURLE_BAD_CONTENT_ENCODING: return .cannotDecodeContentData
        case CURLE_ABORTED_BY_CALLBACK:
            // Only the pre-request trust check aborts transfers, and a refusal it records is handled above:
            // an abort without one is a connection that could not be checked.
            return .secureConnectionFailed
        case CURLE_OUT_OF_MEMORY: return .cannotLoadFromNetwork
        default: return .unknown
        }
    }
}
