import Foundation
@testable import NIOStack
import NetworkCore
import Pinning
import Testing

/// The cache of parsed server certificates: a hit is the same value, and no server can grow it past its capacity.
@Suite("NIO stack: the parsed-certificate cache")
struct ParsedCertificateCacheTests {

    /// The DER bytes of every distinct certificate of the fixture catalogue's chains that swift-certificates parses (it
    /// refuses DSA keys, say).
    private static func fixtureCertificates() throws -> [[UInt8]] {
        let folder = URL(fileURLWithPath: Fixtures.path("."))
        var seen = Set<[UInt8]>()
        var all: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let path = folder.appendingPathComponent(name).appendingPathComponent("served.pem").path
            guard let certificates = try? ServerCertificate.certificates(pemFile: path) else { continue }
            for certificate in certificates where seen.insert(Array(certificate.der)).inserted {
                if (try? ParsedCertificate(der: Array(certificate.der))) != nil { all.append(Array(certificate.der)) }
            }
        }
        return all
    }

    @Test("a certificate asked for again is the one parsed before")
    func hitIsTheSameCertificate() throws {
        let cache = ParsedCertificateCache()
        let der = try #require(try Self.fixtureCertificates().first)
        let first = try cache.parsed(der)
        let again = try cache.parsed(der)
        #expect(again.summary == first.summary)
        #expect(again.certificate == first.certificate)
        #expect(cache.count == 1)
    }

    @Test("more distinct certificates than its capacity leave it at its capacity")
    func boundedByCapacity() throws {
        let certificates = try Self.fixtureCertificates()
        try #require(certificates.count > ParsedCertificateCache.capacity, "the catalogue has \(certificates.count) certificates")
        let cache = ParsedCertificateCache()
        for der in certificates { _ = try cache.parsed(der) }
        #expect(cache.count == ParsedCertificateCache.capacity)
    }

    @Test("bytes that are not a certificate are an error, and nothing is cached")
    func garbageIsNotCached() {
        let cache = ParsedCertificateCache()
        #expect(throws: (any Error).self) { try cache.parsed([0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(cache.count == 0)
    }
}
