import Foundation
import NetworkCore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("What every stack refuses before sending a request")
struct RequestCheckTests {

    private static func request(_ url: String, header: (name: String, value: String)? = nil, method: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        // Set whole: `setValue(_:forHTTPHeaderField:)` drops a value holding CR or LF on Linux.
        if let header { request.allHTTPHeaderFields = [header.name: header.value] }
        request.httpMethod = method
        return request
    }

    private static func refusal(_ request: URLRequest) -> URLError? {
        do {
            _ = try RequestCheck.validate(request, library: "Test")
            return nil
        } catch {
            return error
        }
    }

    @Test("an http or https request with token header names passes, and its URL is the one to send to")
    func wellFormedRequestPasses() throws {
        let request = Self.request("https://example.com/a?b=c", header: ("X-Request-ID", "abc 123"))
        #expect(try RequestCheck.validate(request, library: "Test") == URL(string: "https://example.com/a?b=c"))
    }

    @Test(
        "a scheme other than http and https is unsupportedURL",
        arguments: ["ftp://example.com/", "gopher://example.com/", "file:///etc/hostname"])
    func otherSchemesAreUnsupported(url: String) {
        #expect(Self.refusal(Self.request(url))?.code == .unsupportedURL)
    }

    @Test("a URL without a host is badURL")
    func urlWithoutHostIsBad() {
        #expect(Self.refusal(Self.request("http:///path"))?.code == .badURL)
    }

    @Test("CR, LF or NUL in a header value is badURL", arguments: ["a\rb", "a\nb", "a\r\nX-Injected: 1", "a\u{0}b"])
    func lineBreakOrNULInValueIsBad(value: String) {
        #expect(Self.refusal(Self.request("https://example.com/", header: ("X-Value", value)))?.code == .badURL)
    }

    @Test(
        "a header name that is not an RFC 9110 token is badURL",
        arguments: ["X Name", "X:Name", "X\tName", "X(Name)", "X-Naïve", "X\r\nName"])
    func nonTokenNameIsBad(name: String) {
        let refusal = Self.refusal(Self.request("https://example.com/", header: (name, "v")))
        #expect(refusal?.code == .badURL)
        #expect(refusal?.transportFailure?.library == "Test")
    }

    @Test("idempotent methods may be sent again after a lost connection; POST, PATCH, CONNECT and others may not")
    func onlyIdempotentMethodsAreSentAgain() {
        for method in ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"] {
            #expect(RequestCheck.mayBeSentAgain(Self.request("https://example.com/", method: method)), "\(method)")
        }
        for method in ["POST", "PATCH", "CONNECT", "PURGE"] {
            #expect(!RequestCheck.mayBeSentAgain(Self.request("https://example.com/", method: method)), "\(method)")
        }
    }
}
