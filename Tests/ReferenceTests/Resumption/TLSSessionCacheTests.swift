import COpenSSL
import Foundation
import NetworkCore
@testable import Reference
import Testing

/// The stack's session cache: bounded in hosts, one session per host, taken out when offered, expired ones never.
@Suite("The TLS session cache")
struct TLSSessionCacheTests {

    private static let kept = KeptTrust(
        evidence: .init(host: "localhost", port: 443, served: [], verified: [], standard: .success(())),
        replayablePeriod: Date.distantPast...Date.distantFuture, clientCertificate: nil, leafDemandsStaple: false)

    /// A resumable session (it has an ID) made `age` seconds ago that lives `lifetime` seconds.
    private static func session(id: UInt8, age: Int = 0, lifetime: Int = 300) throws -> OpaquePointer {
        let session = try #require(SSL_SESSION_new())
        let bytes: [UInt8] = Array(repeating: id, count: 32)
        #expect(SSL_SESSION_set1_id(session, bytes, 32) == 1)
        _ = SSL_SESSION_set_protocol_version(session, TLS1_2_VERSION)
        _ = SSL_SESSION_set_time(session, Int(time(nil)) - age)
        _ = SSL_SESSION_set_timeout(session, lifetime)
        return session
    }

    private static func key(_ index: Int) -> TLSSessionCache.Key { .init(host: "host\(index).test", port: 443) }

    @Test("at most 64 hosts are kept, the least recently kept leaving first")
    func boundedInHosts() throws {
        let cache = TLSSessionCache()
        for index in 0..<100 { #expect(cache.keep(try Self.session(id: UInt8(index)), for: Self.key(index), kept: Self.kept)) }
        #expect(cache.count == TLSSessionCache.maximumSessions)
        let now = Int(time(nil))
        #expect(cache.take(Self.key(0), now: now) == nil)
        #expect(cache.take(Self.key(99), now: now) != nil)
    }

    @Test("a host keeps one session, the newest; however many a server sends, the cache does not grow")
    func oneSessionPerHost() throws {
        let cache = TLSSessionCache()
        for id in 0..<300 { #expect(cache.keep(try Self.session(id: UInt8(id % 256)), for: Self.key(0), kept: Self.kept)) }
        #expect(cache.count == 1)
        let taken = try #require(cache.take(Self.key(0), now: Int(time(nil))))
        var length: UInt32 = 0
        let id = try #require(SSL_SESSION_get_id(taken.pointer, &length))
        #expect(id[0] == UInt8(299 % 256))
    }

    @Test("a session is taken out when offered, and an expired one is never offered")
    func takenOnceAndNeverExpired() throws {
        let cache = TLSSessionCache()
        #expect(cache.keep(try Self.session(id: 1), for: Self.key(1), kept: Self.kept))
        #expect(cache.take(Self.key(1), now: Int(time(nil))) != nil)
        #expect(cache.take(Self.key(1), now: Int(time(nil))) == nil)
        #expect(cache.keep(try Self.session(id: 2, age: 400, lifetime: 300), for: Self.key(2), kept: Self.kept))
        #expect(cache.take(Self.key(2), now: Int(time(nil))) == nil)
    }

    @Test("a session that cannot be resumed is not kept, and stays the caller's; a newer one is not replaced by an older")
    func refusedSessions() throws {
        let cache = TLSSessionCache()
        let bare = try #require(SSL_SESSION_new())
        #expect(!cache.keep(bare, for: Self.key(0), kept: Self.kept))
        SSL_SESSION_free(bare)
        #expect(cache.keep(try Self.session(id: 7), for: Self.key(0), kept: Self.kept))
        let older = try Self.session(id: 8)
        #expect(!cache.keep(older, for: Self.key(0), kept: Self.kept, unlessNewer: true))
        SSL_SESSION_free(older)
        #expect(cache.count == 1)
    }
}
