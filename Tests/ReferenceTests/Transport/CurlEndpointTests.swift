@testable import Reference
import Testing

/// Endpoints are remembered by the scheme and authority of a URL, so the key must hold everything the host
/// and port depend on, and nothing of the path.
@Suite("The endpoint cache key")
struct CurlEndpointTests {

    @Test(
        "the key is the URL up to the end of its authority",
        arguments: [
            ("https://api.example.test/users/1?x=1#f", "https://api.example.test"),
            ("https://user:pw@api.example.test:8443/a", "https://user:pw@api.example.test:8443"),
            ("https://[::1]:8443/a", "https://[::1]:8443"),
            ("http://API.Example.TEST.?q", "http://API.Example.TEST."),
            ("https://h#frag", "https://h"),
            ("https://h", "https://h"),
        ])
    func originIsSchemeAndAuthority(url: String, origin: String) {
        #expect(CurlEndpoint.origin(of: url) == origin)
    }

    @Test("URLs that differ only after the authority share a key; other schemes or ports do not")
    func keysSeparateEndpoints() {
        #expect(CurlEndpoint.origin(of: "https://h/a") == CurlEndpoint.origin(of: "https://h/b?c"))
        #expect(CurlEndpoint.origin(of: "https://h/a") != CurlEndpoint.origin(of: "http://h/a"))
        #expect(CurlEndpoint.origin(of: "https://h/a") != CurlEndpoint.origin(of: "https://h:444/a"))
    }
}
