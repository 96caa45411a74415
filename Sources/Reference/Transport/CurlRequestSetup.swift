internal import CCurl
internal import CShims
import Foundation
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a `URLRequest` and the stack's configuration into a transfer's libcurl options. Every option is
/// checked: the first one libcurl refuses fails the transfer, naming it, before anything is sent.
struct CurlRequestSetup {
    let request: URLRequest
    let url: URL
    let configuration: Network.URLSessionNetworkStack.Configuration

    private var method: String { request.httpMethod ?? "GET" }
    private var isHTTPS: Bool { url.scheme?.lowercased() == "https" }

    func apply(to transfer: CurlTransfer) throws(URLError) {
        let fields = request.allHTTPHeaderFields ?? [:]
        if isHTTPS, let reason = CurlGlobal.unsupportedTLSBackend {
            throw URLError(.secureConnectionFailed, failure: TransportFailure(library: "libcurl", code: 0, message: reason), url: url)
        }
        let me = UnsafeMutableRawPointer(Unmanaged.passUnretained(transfer).toOpaque())
        do {
            if isHTTPS { try transfer.trust.configure(transfer.easy, transfer: me) }
        } catch {
            throw URLError(.secureConnectionFailed, failure: error, url: url)
        }
        do {
            try setBasics(transfer.easy, transfer: me)
            try setTimeouts(transfer.easy, transfer: me)
            try setMethodAndBody(transfer.easy)
            try setHeaders(fields, on: transfer.easy)
            let overrides = configuration.resolveOverrides
            if !overrides.isEmpty { try transfer.easy.set(CURLOPT_RESOLVE, list: overrides.map(\.curlEntry)) }
            if let maximumResponseSize = configuration.maximumResponseSize {
                // libcurl refuses an announced length above the limit; the body callback enforces it on the rest.
                try transfer.easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: maximumResponseSize)
            }
        } catch {
            throw URLError(.cannotLoadFromNetwork, failure: error.transportFailure, url: url)
        }
    }

    private func setBasics(_ easy: CurlEasy, transfer: UnsafeMutableRawPointer) throws(CurlEdgeFailure) {
        try easy.set(CURLOPT_URL, string: url.absoluteString)
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_PRIVATE, pointer: transfer)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: curlBodyCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: transfer)
        try easy.set(CURLOPT_HEADERFUNCTION, callback: curlHeaderCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: transfer)
        // Every send passes the pre-request check, plain HTTP too: the replay bound (HTTP-18) and no resend of a
        // request that is not idempotent (HTTP-22); over TLS it also judges a reused connection again.
        try easy.setPreRequestFunction(preRequestCallback)
        try easy.set(CURLOPT_PREREQDATA, pointer: transfer)
        // libcurl keeps a custom method (PUT, DELETE, …) across every redirect, even a 303 that asks for a GET,
        // so such requests see their 3xx instead of being replayed somewhere else.
        let redirects = configuration.redirects
        try easy.set(CURLOPT_FOLLOWLOCATION, redirects.follows && RedirectRule.isFollowed(method: method) ? 1 : 0)
        try easy.set(CURLOPT_MAXREDIRS, redirects.maximum)
        try easy.set(CURLOPT_PROTOCOLS_STR, string: "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, string: RedirectRule.schemes(from: url.scheme ?? "http").joined(separator: ","))
        try easy.set(CURLOPT_ACCEPT_ENCODING, string: "")
        // libcurl's own default (2TLS) is HTTP/2 preferred, but setting it says so, whatever a build defaults to.
        let version = configuration.httpVersions == .http1Only ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS
        try easy.set(CURLOPT_HTTP_VERSION, version)
    }

    /// Connecting must finish within the request's timeout (libcurl's own timer); after that, the loop's idle
    /// timer fails a transfer that sees no byte for that long, to the millisecond.
    private func setTimeouts(_ easy: CurlEasy, transfer: UnsafeMutableRawPointer) throws(CurlEdgeFailure) {
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeout))
        try easy.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(configuration.timeoutIntervalForResource))
        if request.httpBody != nil {
            // Upload progress is progress too: a large body being sent is not an idle transfer.
            try easy.set(CURLOPT_NOPROGRESS, 0)
            try easy.setProgressFunction(curlProgressCallback)
            try easy.set(CURLOPT_XFERINFODATA, pointer: transfer)
        }
    }

    private func setMethodAndBody(_ easy: CurlEasy) throws(CurlEdgeFailure) {
        let body = request.httpBody
        if let body {
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: body.count)
            // Data's bytes have no stable address outside `withUnsafeBytes`, so libcurl copies them.
            let refusal = body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> CurlEdgeFailure? in
                do throws(CurlEdgeFailure) {
                    try easy.set(CURLOPT_COPYPOSTFIELDS, pointer: bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start))
                    return nil
                } catch {
                    return error
                }
            }
            if let refusal { throw refusal }
        } else if method == "POST" {
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: 0)
            try easy.set(CURLOPT_COPYPOSTFIELDS, string: "")  // libcurl does not copy plain POSTFIELDS
        }
        switch method {
        case "GET" where body == nil: break
        case "HEAD": try easy.set(CURLOPT_NOBODY, 1)
        case "POST": break
        default: try easy.set(CURLOPT_CUSTOMREQUEST, string: method)
        }
    }

    private func setHeaders(_ fields: [String: String], on easy: CurlEasy) throws(CurlEdgeFailure) {
        // libcurl sends "Name;" for an empty value; "Name:" alone would remove the header instead.
        var lines = fields.map { name, value in value.isEmpty ? "\(name);" : "\(name): \(value)" }
        // URLSession sends no `Expect: 100-continue`; libcurl would, for larger bodies.
        if !fields.keys.contains(where: { $0.utf8.count == 6 && $0.lowercased() == "expect" }) {
            lines.append("Expect:")
        }
        try easy.set(CURLOPT_HTTPHEADER, list: lines)
    }

    /// A positive interval in whole milliseconds, rounded up, capped where libcurl's `long` would overflow.
    static func milliseconds(_ interval: TimeInterval) -> Int {
        guard interval.isFinite, interval > 0 else { return 0 }  // 0: no limit
        return Int(min((interval * 1000).rounded(.up), Double(Int32.max)))
    }

}
