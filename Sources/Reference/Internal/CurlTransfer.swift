import CCurl
import CShims
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange on a libcurl easy handle: the request it sends, the response it collects, and the
/// completion it calls exactly once, on the loop thread.
///
/// Created on any thread, then touched only by the loop thread (and by libcurl's callbacks, which run
/// there), hence `@unchecked Sendable`. Two exceptions, both after the transfer left (or never joined) the
/// multi handle, so nothing else touches it any more: a transfer submitted to a stopped loop completes on the
/// submitting thread, and the last reference (a `WeakCancelable` caller's, say) may run `deinit` anywhere.
final class CurlTransfer: Cancelable, @unchecked Sendable {

    /// How an exchange ended.
    enum Outcome: Sendable {
        /// A final response, with its body (`nil` when no body byte arrived).
        case response(HTTPURLResponse, Data?)
        /// Only a `101 Switching Protocols` head arrived, then the connection ended: there is no HTTP response.
        case interimOnly(HTTPURLResponse)
        /// The transport failed.
        case failure(URLError)
    }

    typealias Completion = @Sendable (Outcome) -> Void

    private(set) var easy: UnsafeMutableRawPointer?
    private let loop: CurlMultiLoop
    private let url: URL
    let trust: TLSTrustContext
    private var completion: Completion?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// `CURLOPT_RESOLVE` entries; libcurl reads the list when the transfer starts, so it lives as long as the transfer.
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// The response head being collected; reset on each new status line (100 Continue, redirects).
    private var headerFields: [(String, String)] = []
    /// The status of the last status line seen.
    private var lastStatus = 0
    /// The body; `nil` until the first byte arrives, which is how "no body" differs from "empty body".
    private var body: Data?

    /// Set by the TLS verification callbacks (loop thread).
    var chainValidationFailure: ChainValidationFailure?
    var serverTrustFailure: ServerTrustFailure?
    /// Why the transfer cannot start, if its options could not be set.
    private(set) var setupFailure: URLError?

    var isHTTPS: Bool { url.scheme?.lowercased() == "https" }

    private let cancelFlag = ManagedCancelFlag()
    private let maximumResponseSize: Int?
    /// Set when the body outgrew ``maximumResponseSize``.
    private var exceededMaximumSize = false

    init(
        request: URLRequest, url: URL, trust: TLSTrustContext, configuration: Network.URLSessionNetworkStack.Configuration,
        loop: CurlMultiLoop, completion: @escaping Completion
    ) {
        self.loop = loop
        self.url = url
        self.trust = trust
        self.completion = completion
        self.maximumResponseSize = configuration.maximumResponseSize
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        easy = curl_easy_init()
        // libcurl keeps a custom method (PUT, DELETE, …) across every redirect, even a 303 that asks for a GET,
        // so such requests see their 3xx instead of being replayed somewhere else.
        let method = request.httpMethod ?? "GET"
        configure(request: request, followsRedirects: configuration.followsRedirects && ["GET", "HEAD", "POST"].contains(method))
        configureResolveOverrides(configuration.resolveOverrides)
        if let maximumResponseSize {
            // libcurl refuses an announced length above the limit; the body callback enforces it on the rest.
            setopt(CURLOPT_MAXFILESIZE_LARGE, offset: curl_off_t(maximumResponseSize))
        }
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
        errorBuffer.deallocate()
    }

    // MARK: Cancelable

    var isCancelled: Bool { cancelFlag.isSet }

    func cancel() {
        guard cancelFlag.set() else { return }
        loop.cancel(self)
    }

    // MARK: Setup

    private func configure(request: URLRequest, followsRedirects: Bool) {
        guard let easy else {
            setupFailure = URLError(.cannotLoadFromNetwork, failure: TransportFailure(library: "libcurl", code: 0, message: "curl_easy_init failed"), url: url)
            return
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        setopt(CURLOPT_URL, string: url.absoluteString)
        setopt(CURLOPT_NOSIGNAL, 1)
        cshims_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        cshims_easy_setopt_ptr(easy, CURLOPT_PRIVATE, me)
        cshims_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlBodyCallback)
        cshims_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me)
        cshims_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        cshims_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me)
        setopt(CURLOPT_FOLLOWLOCATION, followsRedirects ? 1 : 0)
        setopt(CURLOPT_MAXREDIRS, 16)
        // Only HTTP, and a redirect never leaves TLS: a plain hop would skip the trust handler and send the
        // request's headers (and a 307/308 body) in clear text.
        setopt(CURLOPT_PROTOCOLS_STR, string: "http,https")
        setopt(CURLOPT_REDIR_PROTOCOLS_STR, string: isHTTPS ? "https" : "http,https")
        setopt(CURLOPT_ACCEPT_ENCODING, string: "")

        // URLRequest's timeout is an idle timeout: no progress for that long fails the request.
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        setopt(CURLOPT_CONNECTTIMEOUT_MS, Int(timeout * 1000))
        setopt(CURLOPT_LOW_SPEED_LIMIT, 1)
        setopt(CURLOPT_LOW_SPEED_TIME, max(1, Int(timeout.rounded(.up))))

        if isHTTPS, let reason = CurlGlobal.unsupportedTLSBackend {
            setupFailure = URLError(.secureConnectionFailed, failure: TransportFailure(library: "libcurl", code: 0, message: reason), url: url)
        } else if !trust.configure(easy: easy, transfer: me) {
            setupFailure = URLError(.secureConnectionFailed, failure: TransportFailure(
                library: "libcurl", code: 0, message: "libcurl refused a TLS verification option; the request is not sent unverified"), url: url)
        }
        configureMethodAndBody(request)
        configureHeaders(request)
    }

    private func configureMethodAndBody(_ request: URLRequest) {
        guard let easy else { return }
        let method = request.httpMethod ?? "GET"
        let requestBody = request.httpBody
        if let requestBody {
            setopt(CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(requestBody.count))
            // Data's bytes have no stable address outside `withUnsafeBytes`, so libcurl copies them.
            requestBody.withUnsafeBytes { bytes in
                _ = cshims_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(errorBuffer))
            }
        } else if method == "POST" {
            setopt(CURLOPT_POSTFIELDSIZE_LARGE, offset: 0)
            setopt(CURLOPT_COPYPOSTFIELDS, string: "")  // libcurl does not copy plain POSTFIELDS
        }
        switch method {
        case "GET" where requestBody == nil: break
        case "HEAD": setopt(CURLOPT_NOBODY, 1)
        case "POST": break
        default: setopt(CURLOPT_CUSTOMREQUEST, string: method)
        }
    }

    private func configureResolveOverrides(_ entries: [String]) {
        guard let easy, !entries.isEmpty else { return }
        for entry in entries { resolveList = curl_slist_append(resolveList, entry) }
        cshims_easy_setopt_ptr(easy, CURLOPT_RESOLVE, resolveList)
    }

    private func configureHeaders(_ request: URLRequest) {
        guard let easy else { return }
        let fields = request.allHTTPHeaderFields ?? [:]
        // libcurl sends header lines as given: CR or LF would let a value inject headers or a second request.
        if let bad = fields.first(where: { !Self.isValidHeader(name: $0.key, value: $0.value) }) {
            setupFailure = URLError(.badURL, failure: TransportFailure(
                library: "Reference", code: 0, message: "invalid header field \(bad.key.debugDescription): names are tokens, and no name or value may hold CR, LF or NUL"), url: url)
            return
        }
        for (name, value) in fields {
            // libcurl sends "Name;" for an empty value; "Name:" alone would remove the header instead.
            headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        // URLSession sends no `Expect: 100-continue`; libcurl would, for larger bodies.
        if !fields.keys.contains(where: { $0.utf8.count == 6 && $0.lowercased() == "expect" }) {
            headerList = curl_slist_append(headerList, "Expect:")
        }
        cshims_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList)
    }

    private static func isValidHeader(name: String, value: String) -> Bool {
        let forbidden: Set<UInt8> = [0x0D, 0x0A, 0x00]
        return !name.isEmpty && !name.utf8.contains(where: { forbidden.contains($0) || $0 == UInt8(ascii: ":") || $0 == 0x20 || $0 == 0x09 })
            && !value.utf8.contains(where: { forbidden.contains($0) })
    }

    private func setopt(_ option: CURLoption, _ value: Int) {
        _ = cshims_easy_setopt_long(easy, option, value)
    }

    private func setopt(_ option: CURLoption, offset: curl_off_t) {
        _ = cshims_easy_setopt_off_t(easy, option, offset)
    }

    private func setopt(_ option: CURLoption, string: String) {
        _ = string.withCString { cshims_easy_setopt_ptr(easy, option, $0) }  // libcurl copies strings
    }

    // MARK: libcurl callbacks (loop thread)

    /// Appends body bytes; returns `false` to abort the transfer when the body grows past the limit.
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let maximumResponseSize, (body?.count ?? 0) + bytes.count > maximumResponseSize {
            exceededMaximumSize = true
            return false
        }
        if body == nil {
            var expected: curl_off_t = -1
            cshims_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected)
            // The server's Content-Length is a hint, not a promise: reserve at most 1 MiB ahead.
            body = Data(capacity: expected > 0 ? Int(min(expected, 1 << 20)) : bytes.count)
        }
        body!.append(contentsOf: bytes)
        return true
    }

    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Parsed on bytes: Foundation's string trimming costs more than the rest of a request.
        if bytes.starts(with: "HTTP/".utf8) {
            headerFields = []
            body = nil
            lastStatus = Self.statusCode(ofStatusLine: bytes)
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = bytes[..<colon].trimmingHTTPWhitespace()
        let value = bytes[(colon + 1)...].trimmingHTTPWhitespace()
        headerFields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    // MARK: Completion (loop thread)

    func complete(code: CURLcode) {
        // A 101 the request never asked for: the server left HTTP, and no response to the request will come.
        if code != CURLE_OK, lastStatus == 101, let interim = makeResponse(status: lastStatus) {
            finish(.interimOnly(interim))
            return
        }
        guard code == CURLE_OK else {
            finish(.failure(makeURLError(code: code)))
            return
        }
        var status = 0
        cshims_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard let response = makeResponse(status: status) else {
            finish(.failure(URLError(.badServerResponse, failure: TransportFailure(library: "libcurl", code: 0, message: "no HTTP response"), url: url)))
            return
        }
        finish(.response(response, body))
    }

    private func makeResponse(status: Int) -> HTTPURLResponse? {
        var redirects = 0
        cshims_easy_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        var finalURL = url
        if redirects > 0 {  // parsing a URL is not free: only a redirect changes it
            var effective: UnsafePointer<CChar>?
            cshims_easy_getinfo_ptr(easy, CURLINFO_EFFECTIVE_URL, &effective)
            finalURL = effective.flatMap { URL(string: String(cString: $0)) } ?? url
        }
        var version = 0
        cshims_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        var fields: [String: String] = [:]
        for (name, value) in headerFields {
            if let existing = fields[name] { fields[name] = existing + ", " + value } else { fields[name] = value }
        }
        return HTTPURLResponse(url: finalURL, statusCode: status, httpVersion: httpVersionString(version), headerFields: fields)
    }

    /// The three-digit code after the protocol of a status line (`HTTP/1.1 101 Switching Protocols`), or 0.
    private static func statusCode(ofStatusLine line: UnsafeRawBufferPointer) -> Int {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")), space + 3 < line.count else { return 0 }
        let digits = line[(space + 1)...(space + 3)]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return 0 }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Completes a transfer whose options could not be set; returns whether there was such a failure.
    func completeIfSetupFailed() -> Bool {
        guard let setupFailure else { return false }
        finish(.failure(setupFailure))
        return true
    }

    func complete(addFailure code: CURLMcode) {
        let message = String(cString: curl_multi_strerror(code))
        finish(.failure(URLError(.cannotLoadFromNetwork, failure: TransportFailure(library: "libcurl multi", code: Int(code.rawValue), message: message), url: url)))
    }

    func completeCancelled() {
        finish(.failure(URLError(.cancelled, failure: TransportFailure(library: "libcurl", code: 0, message: "cancelled"), url: url)))
    }

    private func finish(_ result: Outcome) {
        guard let completion else { return }
        self.completion = nil
        body = nil
        completion(result)
    }

    private func makeURLError(code: CURLcode) -> URLError {
        let buffered = String(cString: errorBuffer)
        let message = buffered.isEmpty ? String(cString: curl_easy_strerror(code)) : buffered
        if exceededMaximumSize {
            let failure = TransportFailure(library: "Reference", code: Int(code.rawValue), message: "the response body is larger than maximumResponseSize (\(maximumResponseSize ?? 0) bytes)")
            return URLError(.dataLengthExceedsMaximum, failure: failure, url: url)
        }
        let failure = TransportFailure(
            library: "libcurl", code: Int(code.rawValue), message: message,
            chainValidationFailure: chainValidationFailure, serverTrustFailure: serverTrustFailure)
        return URLError(URLErrorMapping.code(for: code, failure: failure), failure: failure, url: url)
    }

    private func httpVersionString(_ version: Int) -> String {
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_2_0): return "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): return "HTTP/3"
        default: return "HTTP/1.1"
        }
    }
}

/// A flag that is set once, atomically.
final class ManagedCancelFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    /// Sets the flag; returns whether this call set it.
    func set() -> Bool { flag.withLock { wasSet in defer { wasSet = true }; return !wasSet } }
}

private let curlBodyCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let pointer, let userdata else { return 0 }
    let length = size * count
    let accepted = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        .receiveBody(UnsafeRawBufferPointer(start: pointer, count: length))
    return accepted ? length : 0  // a short count makes libcurl abort with CURLE_WRITE_ERROR
}

private let curlHeaderCallback: curl_write_callback = { pointer, size, count, userdata in
    guard let pointer, let userdata else { return 0 }
    let length = size * count
    Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        .receiveHeaderLine(UnsafeRawBufferPointer(start: pointer, count: length))
    return length
}

extension Slice where Base == UnsafeRawBufferPointer {
    /// The bytes without leading and trailing spaces, tabs, CR and LF.
    fileprivate func trimmingHTTPWhitespace() -> Slice<UnsafeRawBufferPointer> {
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) }) else {
            return self[startIndex..<startIndex]
        }
        return self[first...last]
    }
}
