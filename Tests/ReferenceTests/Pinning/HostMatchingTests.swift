import Foundation
import Reference
import Testing

extension PinningTests {

    @Suite("Host matching and policy precedence")
    struct HostMatching {
        let pin = Catalogue.leaf("valid-ec256")

        func configuration(_ policies: ServerTrustEvaluator.PinningPolicy...) throws -> ServerTrustEvaluator.Configuration {
            try ServerTrustEvaluator.Configuration(pinningPolicies: policies)
        }

        @Test(
            "an exact policy covers its domain in any case and with one trailing dot, and nothing else",
            arguments: [
                ("example.test", true), ("EXAMPLE.Test", true), ("example.test.", true), ("example.test..", false),
                ("api.example.test", false), ("xexample.test", false), ("example.test.evil", false), ("test", false), ("", false),
            ])
        func exactPolicy(host: String, covered: Bool) throws {
            let configuration = try configuration(policy("example.test", pins: [pin]))
            #expect((configuration.policy(forHost: host) != nil) == covered)
        }

        @Test(
            "includeSubdomains covers the domain and every subdomain, never look-alikes or parents",
            arguments: [
                ("example.test", true), ("api.example.test", true), ("a.b.c.example.test", true), ("API.EXAMPLE.TEST.", true),
                ("xexample.test", false), ("example.test.evil", false), ("evil-example.test", false), ("test", false),
                ("other.test", false), (".example.test", false), ("a..example.test", false),
            ])
        func subdomainPolicy(host: String, covered: Bool) throws {
            let configuration = try configuration(policy("example.test", subdomains: true, pins: [pin]))
            #expect((configuration.policy(forHost: host) != nil) == covered)
        }

        @Test("a subdomain policy never covers its parent domains")
        func noParents() throws {
            let configuration = try configuration(policy("api.example.test", subdomains: true, pins: [pin]))
            #expect(configuration.policy(forHost: "example.test") == nil)
            #expect(configuration.policy(forHost: "test") == nil)
            #expect(configuration.policy(forHost: "v1.api.example.test")?.domainName == "api.example.test")
        }

        @Test("overlapping policies: the exact domain wins over a covering one, in any order")
        func exactWins() throws {
            let parent = try policy("example.test", subdomains: true, pins: [pin])
            let exact = try policy("api.example.test", pins: [Catalogue.backup])
            for policies in [[parent, exact], [exact, parent]] {
                let configuration = try ServerTrustEvaluator.Configuration(pinningPolicies: policies)
                #expect(configuration.policy(forHost: "api.example.test") == exact)
                #expect(configuration.policy(forHost: "www.example.test") == parent)
            }
        }

        @Test("overlapping policies: the longest covering domain wins, in any order")
        func longestWins() throws {
            let short = try policy("example.test", subdomains: true, pins: [pin])
            let long = try policy("api.example.test", subdomains: true, pins: [Catalogue.backup])
            for policies in [[short, long], [long, short]] {
                let configuration = try ServerTrustEvaluator.Configuration(pinningPolicies: policies)
                #expect(configuration.policy(forHost: "v1.api.example.test") == long)
                #expect(configuration.policy(forHost: "api.example.test") == long)
                #expect(configuration.policy(forHost: "www.example.test") == short)
            }
        }

        @Test("an exact policy without includeSubdomains does not stop a parent policy covering its subdomains")
        func exactDoesNotCoverBelow() throws {
            let parent = try policy("example.test", subdomains: true, pins: [pin])
            let exact = try policy("api.example.test", pins: [Catalogue.backup])
            let configuration = try ServerTrustEvaluator.Configuration(pinningPolicies: [parent, exact])
            #expect(configuration.policy(forHost: "v1.api.example.test") == parent)
        }
    }
}
