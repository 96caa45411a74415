import Foundation
import NetworkCore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Which redirects a stack follows, and how")
struct RedirectRuleTests {

    private static func request(_ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.allHTTPHeaderFields = headers
        request.httpBody = body
        return request
    }

    private static func decide(_ status: Int, to location: String?, from request: URLRequest, after redirects: Int = 0)
        -> RedirectRule.Decision
    {
        RedirectRule.decide(status: status, location: location, request: request, redirects: redirects, library: "Test")
    }

    private static func followed(_ decision: RedirectRule.Decision) -> URLRequest? {
        if case .follow(let next) = decision { return next }
        return nil
    }

    private static func refusalCode(_ decision: RedirectRule.Decision) -> URLError.Code? {
        if case .refuse(let error) = decision { return error.code }
        return nil
    }

    @Test("a 302 with a relative Location is followed to the URL it names")
    func relativeLocationIsFollowed() {
        let next = Self.followed(Self.decide(302, to: "/next?a=1", from: Self.request("https://example.com/start")))
        #expect(next?.url == URL(string: "https://example.com/next?a=1"))
    }

    @Test("a 300, a 304 and a 3xx without Location are delivered", arguments: [(300, "/x"), (304, "/x"), (302, nil)] as [(Int, String?)])
    func someAreDelivered(status: Int, location: String?) {
        guard case .deliver = Self.decide(status, to: location, from: Self.request("https://example.com/")) else {
            Issue.record("expected the response to be delivered")
            return
        }
    }

    @Test("a policy that follows none delivers the 3xx itself, rather than refusing it as one redirect too many")
    func neverFollowsDelivers() {
        let request = Self.request("https://example.com/")
        guard
            case .deliver = RedirectRule.decide(
                status: 302, location: "/x", request: request, redirects: 0, maximum: RedirectPolicy.never.maximum, library: "Test")
        else {
            Issue.record("expected the response to be delivered")
            return
        }
        #expect(RedirectPolicy.follow(maximum: -3) == .never)
        #expect(RedirectPolicy.default.maximum == RedirectRule.defaultMaximum)
    }

    @Test("a custom method sees its 3xx instead of being sent elsewhere")
    func customMethodsAreNotFollowed() {
        guard case .deliver = Self.decide(307, to: "/x", from: Self.request("https://example.com/", method: "PUT")) else {
            Issue.record("expected the response to be delivered")
            return
        }
        #expect(!RedirectRule.isFollowed(method: "DELETE"))
    }

    @Test("from https only https is followed; from http, http and https; no other scheme ever")
    func schemes() {
        #expect(
            Self.refusalCode(Self.decide(302, to: "http://example.com/", from: Self.request("https://example.com/"))) == .unsupportedURL)
        #expect(Self.refusalCode(Self.decide(302, to: "ftp://example.com/", from: Self.request("http://example.com/"))) == .unsupportedURL)
        #expect(Self.followed(Self.decide(302, to: "https://example.com/", from: Self.request("http://example.com/"))) != nil)
        #expect(RedirectRule.schemes(from: "HTTPS") == ["https"])
    }

    @Test("the 17th redirect in a row is httpTooManyRedirects")
    func limit() {
        let request = Self.request("https://example.com/")
        #expect(Self.followed(Self.decide(302, to: "/x", from: request, after: RedirectRule.defaultMaximum - 1)) != nil)
        #expect(Self.refusalCode(Self.decide(302, to: "/x", from: request, after: RedirectRule.defaultMaximum)) == .httpTooManyRedirects)
    }

    @Test("a 303, and a 301 or 302 after a POST, becomes a GET without the body; a 307 keeps method and body")
    func methodChanges() {
        let post = Self.request("https://example.com/", method: "POST", headers: ["Content-Type": "text/plain"], body: Data("b".utf8))
        for status in [301, 302, 303] {
            let next = Self.followed(Self.decide(status, to: "/x", from: post))
            #expect(next?.httpMethod == "GET", "\(status)")
            #expect(next?.httpBody == nil, "\(status)")
            #expect(next?.value(forHTTPHeaderField: "Content-Type") == nil, "\(status)")
        }
        let kept = Self.followed(Self.decide(307, to: "/x", from: post))
        #expect(kept?.httpMethod == "POST")
        #expect(kept?.httpBody == Data("b".utf8))
    }

    @Test("credentials go to the same origin only: another host or port gets no Authorization or Cookie")
    func credentialsStayWithTheOrigin() {
        let request = Self.request("https://example.com/", headers: ["Authorization": "Bearer t", "Cookie": "s=1"])
        let same = Self.followed(Self.decide(302, to: "https://example.com:443/x", from: request))
        #expect(same?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        for other in ["https://other.example.com/x", "https://example.com:8443/x"] {
            let next = Self.followed(Self.decide(302, to: other, from: request))
            #expect(next?.value(forHTTPHeaderField: "Authorization") == nil, "\(other)")
            #expect(next?.value(forHTTPHeaderField: "Cookie") == nil, "\(other)")
        }
    }
}
