#if canImport(Glibc)
import Glibc
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import NetworkCore

/// The `URLError` of each way an exchange can fail, with the codes of the reference stack
/// (`docs/urlerror-mapping.md`); decided from the error's type and the handshake's recorded refusal, never from text.
enum TransportErrors {

    static let library = "SwiftNIO"

    /// A failure the transport itself decided (before sending, a limit, a timeout).
    static func make(_ code: URLError.Code, _ message: String, url: URL?) -> URLError {
        URLError(code, failure: TransportFailure(library: library, code: code.rawValue, message: message), url: url)
    }

    /// The `URLError` of an error NIO reported, given what the handshake's trust check recorded: its refusal of the
    /// server first, then a refusal of the client's certificate (ERR-23), which under TLS 1.3 comes after the
    /// client's side of the handshake, with the request already written.
    ///
    /// - Parameter inHandshake: the error ended a TLS connection before its handshake finished: whatever it was (a
    ///   reset, a close, an alert), the secure connection failed.
    static func map(_ error: any Error, trust: HandshakeTrust?, inHandshake: Bool = false, url: URL?) -> URLError {
        if let refusal = trust?.refusal { return map(refusal, cause: error, url: url) }
        let message = "\(error)"
        func failure(_ code: URLError.Code, _ message: String = message) -> URLError {
            URLError(code, failure: TransportFailure(library: library, code: code.rawValue, message: message), url: url)
        }
        let alert = BoringSSLAlert.received(in: error)
        if var exchange = trust?.clientCertificate {
            exchange.fatalAlert = alert
            if let code = exchange.code { return failure(code, "\(exchange.reason(library: "BoringSSL")) (\(message))") }
        }
        // certificate_required (TLS 1.3) says what failed even from a server that never asked in the handshake.
        if alert == 116 { return failure(.clientCertificateRequired) }
        if inHandshake { return failure(.secureConnectionFailed) }
        switch error {
        case let error as URLError:
            return error
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil { return failure(.cannotFindHost) }
            return failure(.cannotConnectToHost)
        case ChannelError.connectTimeout:
            return failure(.timedOut)
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return failure(.cannotConnectToHost)
            case ECONNRESET, EPIPE: return failure(.networkConnectionLost)
            default: return failure(.networkConnectionLost)
            }
        case let error as NIOSSLError:
            if case .uncleanShutdown = error { return failure(.networkConnectionLost) }
            return failure(.secureConnectionFailed)
        case is BoringSSLError:
            return failure(.secureConnectionFailed)
        case NIOHTTPDecompression.DecompressionError.limit:
            return failure(.dataLengthExceedsMaximum)
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return failure(.cannotDecodeContentData)
        case HTTPParserError.invalidEOFState:
            // The connection ended inside a head or a body: nothing whole was answered.
            return failure(.networkConnectionLost)
        case is HTTPParserError:
            return failure(.badServerResponse)
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.alreadyClosed:
            return failure(.networkConnectionLost)
        default:
            return failure(.unknown)
        }
    }

    /// The `URLError` of an HTTP/2 stream's failure, given the error that ended its connection, if one did.
    ///
    /// A stream reset with `PROTOCOL_ERROR`, or frames of its own that break HTTP's rules (no `:status`, a
    /// connection-specific field, a `content-length` its `DATA` contradict), are a bad response (ERR-19); a stream reset
    /// for another reason is a lost connection (ERR-20), as is a connection that broke HTTP/2 itself (ERR-21). Any
    /// other error that ended the connection (a TLS alert, a reset) is mapped as over HTTP/1.1.
    static func map(streamError: any Error, connectionFailure: (any Error)?, trust: HandshakeTrust?, url: URL?) -> URLError {
        func failure(_ code: URLError.Code, _ error: any Error) -> URLError {
            URLError(code, failure: TransportFailure(library: library, code: code.rawValue, message: "\(error)"), url: url)
        }
        if let closed = streamError as? NIOHTTP2Errors.StreamClosed {
            return failure(closed.errorCode == .protocolError ? .badServerResponse : .networkConnectionLost, closed)
        }
        if streamError is any NIOHTTP2Error { return failure(.badServerResponse, streamError) }
        if let connectionFailure {
            if connectionFailure is any NIOHTTP2Error { return failure(.networkConnectionLost, connectionFailure) }
            return map(connectionFailure, trust: trust, url: url)
        }
        return map(streamError, trust: trust, url: url)
    }

    /// A refused server, as ``TrustRefusal`` says.
    static func map(_ refusal: TrustRefusal, cause: (any Error)?, url: URL?) -> URLError {
        let message =
            cause.map { "the TLS handshake was refused by the trust check (\($0))" }
            ?? "the reused connection was refused by the trust check"
        return URLError(
            refusal.code, failure: refusal.transportFailure(library: library, code: refusal.code.rawValue, message: message), url: url)
    }
}
