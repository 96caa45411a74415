import CCurl
import CShims
import Foundation
import MockServer
@testable import Reference
import TestTraits
import Testing

/// The pool of easy handles: what a reused handle brings from its last transfer.
@Suite("Pooled easy handles", .scaledTimeLimit(minutes: 1), .blocking)
struct CurlEasyPoolTests {

    @Test("a handle whose transfer ended on a socket error is not kept: CURLINFO_OS_ERRNO survives curl_easy_reset")
    func handleWithASocketErrorIsNotPooled() throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(fault: .resetWithNoReply))
        let pool = CurlEasyPool()
        let handle = try #require(pool.take())
        let code = server.url("/").absoluteString.withCString { url in
            _ = cshims_easy_setopt_ptr(handle, CURLOPT_URL, url)
            return curl_easy_perform(handle)
        }
        var socketError = 0
        _ = cshims_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &socketError)
        #expect(code != CURLE_OK)
        #expect(socketError == Int(ECONNRESET))

        pool.give(handle)
        let next = try #require(pool.take())
        defer { pool.give(next) }
        var inherited = -1
        _ = cshims_easy_getinfo_long(next, CURLINFO_OS_ERRNO, &inherited)
        #expect(inherited == 0)
    }
}
