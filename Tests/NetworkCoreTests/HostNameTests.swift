import NetworkCore
import Testing

@Suite("A URL's host as the trust check, SNI and the handler see it")
struct HostNameTests {

    @Test(
        "case, IPv6 brackets and one trailing dot do not make another host",
        arguments: [
            ("Example.COM", "example.com"), ("example.com.", "example.com"), ("[::1]", "::1"), ("[FE80::1]", "fe80::1"),
            ("127.0.0.1", "127.0.0.1"), ("a..", "a."), (".", "."),
            // IPv4 written short or in another base is the address a resolver (and libcurl) reads.
            ("127.1", "127.0.0.1"), ("1.2.3", "1.2.0.3"), ("0x7F.1", "127.0.0.1"), ("2130706433", "127.0.0.1"),
            ("1.2.3.4.5", "1.2.3.4.5"), ("1a.example", "1a.example"),
        ])
    func normalized(spelled: String, host: String) {
        #expect(HostName.normalized(spelled) == host)
    }

    @Test("SNI carries names, never addresses: what parses as an IP literal is no name")
    func namesAndAddresses() {
        #expect(HostName.isName("localhost"))
        #expect(HostName.isName("1.2.3.4.5"))
        #expect(!HostName.isName(HostName.normalized("1.2.3")))
        #expect(!HostName.isName("127.0.0.1"))
        #expect(!HostName.isName("::1"))
    }
}
