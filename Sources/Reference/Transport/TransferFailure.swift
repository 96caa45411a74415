internal import CCurl
internal import CShims
import Foundation
import NetworkCore

/// Why a transfer failed, from facts alone: libcurl's result code, what the transfer's own callbacks stopped,
/// the TLS verdict, and the response head as it stood (ERR-6 .. ERR-16). `docs/urlerror-mapping.md` is this
/// table for users.
///
/// No code is chosen by reading a message, with one exception: libcurl 7.88 names the HTTP/2 error code that closed
/// a stream only in its message, so that one number is read from it (``HTTP2StreamError``). Otherwise the message
/// only travels along, in the `TransportFailure`.
struct TransferFailure {
    let code: CURLcode
    let message: String
    let stop: CurlTransfer.Stop?
    let verdict: TrustVerdict?
    /// What became of the server's request for a client certificate, if it made one.
    let clientCertificate: ClientCertificateExchange?
    let head: ResponseHead?
    /// libcurl's `CURLINFO_OS_ERRNO`: the socket error behind a receive failure, 0 when there was none.
    let socketError: Int
    /// Whether the request went out (`CURLINFO_REQUEST_SIZE` above 0): what failed after it was the response.
    let requestSent: Bool

    /// The `URLError` code Apple's `URLSession` gives for the same failure.
    var urlErrorCode: URLError.Code {
        switch stop {
        case .bodyTooLarge: return .dataLengthExceedsMaximum
        case .headTooLarge: return .badServerResponse
        case .replaysExhausted, .lostAfterSending: return .networkConnectionLost
        case .connectionPresentedAnotherIdentity: return .secureConnectionFailed
        case nil: break
        }
        if let refused = verdict?.code { return refused }
        // After the server's own trust (which came first in the handshake), a refusal of the client's certificate
        // (ERR-23): under TLS 1.3 it comes as a failed read, with the request already written, and is still one.
        if let refused = clientCertificate?.code { return refused }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // libcurl says this both for a redirect to a scheme it may not follow and for a reply that is not HTTP.
            return isRedirect ? .unsupportedURL : .badServerResponse
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
        case CURLE_RECV_ERROR where socketError == 0 && head != nil:
            // Receiving failed with no socket error once a head had arrived: libcurl refused what came (a
            // malformed chunked body), which is a bad reply, not a lost connection.
            return .badServerResponse
        case CURLE_HTTP2_STREAM where HTTP2StreamError(libcurlMessage: message) == .protocolError:
            // The stream broke the protocol: nghttp2 refused a malformed response (no `:status`, a
            // connection-specific field, a length its DATA contradicts), or the server said the exchange did.
            return .badServerResponse
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP3: return .badServerResponse
        case CURLE_OUT_OF_MEMORY:
            // libcurl 7.88 reports a response line over its 100 KiB limit as out of memory, a status line (no head
            // yet) as well as a header line: once the request went out, it is the server's bytes that did it.
            return head != nil || requestSent ? .badServerResponse : .cannotLoadFromNetwork
        case CURLE_TOO_MANY_REDIRECTS: return .httpTooManyRedirects
        case CURLE_FILESIZE_EXCEEDED: return .dataLengthExceedsMaximum
        case CURLE_BAD_CONTENT_ENCODING: return .cannotDecodeContentData
        case CURLE_ABORTED_BY_CALLBACK:
            // Only the pre-request callback aborts transfers: the replay bound and a redirect onto another identity
            // leave a stop, a trust refusal a verdict, a client-certificate cancel on reuse an exchange (all handled
            // above); without any, the connection could not be checked, or starting over on a new one failed.
            return .secureConnectionFailed
        default: return .unknown
        }
    }

    /// Whether the last head was a redirect, which libcurl was about to follow.
    private var isRedirect: Bool {
        guard let head, (300..<400).contains(head.status) else { return false }
        return head.value(of: "location") != nil
    }

    var transportFailure: TransportFailure {
        switch stop {
        case .bodyTooLarge(let limit):
            return TransportFailure(
                library: "Reference", code: Int(code.rawValue),
                message: "the response body is larger than maximumResponseSize (\(limit) bytes)")
        case .headTooLarge:
            return TransportFailure(
                library: "Reference", code: Int(code.rawValue),
                message: "the response heads are larger than \(ResponseHeadParser.maximumBytes) bytes")
        case .replaysExhausted(let sends):
            return TransportFailure(
                library: "Reference", code: Int(code.rawValue),
                message:
                    "the request was sent \(sends) times with no response (a refused HTTP/2 stream, a GOAWAY that left it out, or a dead connection, each time); replays stop at \(ReplayRule.maximumReplays)"
            )
        case .connectionPresentedAnotherIdentity:
            return TransportFailure(
                library: "Reference", code: Int(code.rawValue),
                message:
                    "a redirect would have reused a connection that presented another client identity than the handler chooses now; starting over would send the first request again"
            )
        case .lostAfterSending:
            return TransportFailure(
                library: "Reference", code: Int(code.rawValue),
                message:
                    "the connection was lost after the request was written, with no response; a request that is not idempotent is not sent again, since the server may have acted on it"
            )
        case nil:
            if verdict?.isAccepted ?? true, let exchange = clientCertificate, exchange.isRefusal {
                return TransportFailure(
                    library: "libcurl", code: Int(code.rawValue), message: "\(exchange.reason(library: "OpenSSL")) (\(message))")
            }
            return verdict?.transportFailure(code: Int(code.rawValue), message: message)
                ?? TransportFailure(library: "libcurl", code: Int(code.rawValue), message: message)
        }
    }
}
