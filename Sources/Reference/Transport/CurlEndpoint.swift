internal import CCurl
internal import CShims
import Foundation
import NetworkCore

/// Where a transfer connects, as libcurl sees it: the host in the form that goes on the wire (punycode for
/// internationalised names, lowercased, one trailing dot removed, IPv6 without brackets) and the port.
struct CurlEndpoint: Sendable, Equatable {
    var host: String
    var port: Int

    /// Endpoints already worked out, by the scheme and authority of the URL they came from: the host and port
    /// depend on nothing else, parsing a URL costs more than the rest of a reused connection's trust check,
    /// and a process talks to few hosts. Emptied when full rather than evicting one by one.
    private static let known = Locked([String: CurlEndpoint]())
    private static let knownLimit = 256

    /// The endpoint of the URL a transfer is at now (after any redirect).
    static func of(_ easy: UnsafeMutableRawPointer) -> CurlEndpoint? {
        var effective: UnsafePointer<CChar>?
        guard cshims_easy_getinfo_ptr(easy, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK, let effective else { return nil }
        let key = origin(of: effective)
        if let endpoint = known.withLock({ $0[key] }) { return endpoint }
        guard let endpoint = parse(effective) else { return nil }
        known.withLock { known in
            if known.count >= knownLimit { known.removeAll(keepingCapacity: true) }
            known[key] = endpoint
        }
        return endpoint
    }

    /// The URL up to the end of its authority (`https://user@host:8443` of `https://user@host:8443/a?b`).
    static func origin(of url: String) -> String {
        url.withCString { origin(of: $0) }
    }

    /// libc's byte scans: this runs for every request on a reused connection, where Swift's generic
    /// collection searches cost more than the URL parse they save.
    private static func origin(of url: UnsafePointer<CChar>) -> String {
        var length = strlen(url)
        if let separator = strstr(url, "://") {
            let authority = UnsafePointer(separator) + 3
            length = (authority - url) + strcspn(authority, "/?#")
        }
        return url.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    private static func parse(_ effective: UnsafePointer<CChar>) -> CurlEndpoint? {
        guard let url = curl_url() else { return nil }
        defer { curl_url_cleanup(url) }
        guard curl_url_set(url, CURLUPART_URL, effective, 0) == CURLUE_OK else { return nil }
        func part(_ what: CURLUPart, _ flags: UInt32) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(url, what, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let host = part(CURLUPART_HOST, UInt32(CURLU_PUNYCODE)),
            let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap(Int.init)
        else { return nil }
        return CurlEndpoint(host: HostName.normalized(host), port: port)
    }
}
