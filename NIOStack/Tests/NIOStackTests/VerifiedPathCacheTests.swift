import Foundation
@testable import NIOStack
import NetworkCore
import Testing
import X509

/// The cache of accepted paths: a hit needs the same chain, the same host, and a time strictly inside every
/// certificate's validity; no server can grow it past its capacity.
@Suite("NIO stack: the verified-path cache")
struct VerifiedPathCacheTests {

    /// The valid-ec256 chain as served (leaf, intermediate) and its path (with the root).
    private static func chain() throws -> (served: [Certificate], path: [Certificate]) {
        let served = try ServerCertificate.certificates(pemFile: Fixtures.path("valid-ec256/served.pem")).map {
            try Certificate(derEncoded: Array($0.der))
        }
        let root = try ServerCertificate.certificates(pemFile: Fixtures.path("roots/root-a.pem")).map {
            try Certificate(derEncoded: Array($0.der))
        }
        return (served, served + root)
    }

    /// A time inside every certificate of the path's validity.
    private static func inside(_ path: [Certificate]) throws -> Date {
        let from = try #require(path.map(\.notValidBefore).max())
        let until = try #require(path.map(\.notValidAfter).min())
        return from.addingTimeInterval(until.timeIntervalSince(from) / 2)
    }

    @Test("a path kept for a chain and host is found for them, inside its validity")
    func hitForSameChainAndHost() throws {
        let (served, path) = try Self.chain()
        let cache = VerifiedPathCache()
        cache.keep(path, served: served, host: "localhost")
        #expect(cache.path(served: served, host: "localhost", at: try Self.inside(path)) == path)
    }

    @Test("another host, or the chain without its intermediate, finds nothing")
    func missForOtherHostOrChain() throws {
        let (served, path) = try Self.chain()
        let cache = VerifiedPathCache()
        cache.keep(path, served: served, host: "localhost")
        let time = try Self.inside(path)
        #expect(cache.path(served: served, host: "example.com", at: time) == nil)
        #expect(cache.path(served: [served[0]], host: "localhost", at: time) == nil)
    }

    @Test("at or past the earliest notAfter, and at or before the latest notBefore, the path is validated again")
    func missAtOrOutsideValidity() throws {
        let (served, path) = try Self.chain()
        let cache = VerifiedPathCache()
        cache.keep(path, served: served, host: "localhost")
        let from = try #require(path.map(\.notValidBefore).max())
        let until = try #require(path.map(\.notValidAfter).min())
        for time in [from, from.addingTimeInterval(-1), until, until.addingTimeInterval(1)] {
            #expect(cache.path(served: served, host: "localhost", at: time) == nil, "\(time)")
        }
    }

    @Test("more hosts than its capacity leave it at its capacity")
    func boundedByCapacity() throws {
        let (served, path) = try Self.chain()
        let cache = VerifiedPathCache()
        for index in 0...(VerifiedPathCache.capacity * 2) { cache.keep(path, served: served, host: "host-\(index).test") }
        #expect(cache.count == VerifiedPathCache.capacity)
    }
}
