import NetworkCore
import Testing

@Suite("A URL's host as the trust check, SNI and the handler see it")
struct HostNameTests {

    @Test(
        "case, IPv6 brackets and one trailing dot do not make another host",
        arguments: [
            ("Example.COM", "example.com"), ("example.com.", "example.com"), ("[::1]", "::1"), ("[FE80::1]", "fe80::1"),
            ("127.0.0.1", "127.0.0.1"), ("a..", "a."), (".", "."),
        ])
    func normalized(spelled: String, host: String) {
        #expect(HostName.normalized(spelled) == host)
    }

    @Test("SNI carries names, never addresses: what parses as an IP literal is no name")
    func namesAndAddresses() {
        #expect(HostName.isName("localhost"))
        #expect(HostName.isName("1.2.3"))
        #expect(!HostName.isName("127.0.0.1"))
        #expect(!HostName.isName("::1"))
    }
}
