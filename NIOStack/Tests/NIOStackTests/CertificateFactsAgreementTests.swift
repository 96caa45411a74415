import CertificateFactsDifference
import CertificateRules
import Foundation
import NIOStack
import Reference
import Testing
import SwiftASN1
import X509

/// One set of rules judges both stacks only if both read the same facts: every certificate of the fixture catalogue,
/// read with OpenSSL (the reference stack) and with swift-certificates (this stack), gives equal facts.
@Suite("The two stacks read the same certificate facts")
struct CertificateFactsAgreementTests {

    /// Every PEM certificate file of the catalogue, relative to it.
    static let certificateFiles: [String] = {
        let enumerator = FileManager.default.enumerator(atPath: Fixtures.directory)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".pem"), !path.hasSuffix(".key"), !path.contains("crl") { files.append(path) }
        }
        return files.sorted()
    }()

    @Test("every fixture certificate swift-certificates parses gives the facts OpenSSL gives")
    func factsAgree() throws {
        var compared = 0
        var disagreements: [String] = []
        for file in Self.certificateFiles {
            guard let text = try? String(contentsOfFile: Fixtures.path(file), encoding: .utf8),
                let documents = try? PEMDocument.parseMultiple(pemString: text)
            else { continue }
            for (index, document) in documents.enumerated() where document.discriminator == "CERTIFICATE" {
                let der = document.derBytes
                guard let openSSL = CertificateFacts(openSSLDER: der, depth: index) else { continue }
                guard let certificate = try? Certificate(derEncoded: der) else {
                    let unparsed = try #require(CertificateFacts.unparsed(der: der, depth: index), "\(file)#\(index)")
                    if unparsed.serialNumber != openSSL.serialNumber || unparsed.publicKey != openSSL.publicKey {
                        disagreements.append("\(file)#\(index) (unparsed): \(unparsed.publicKey) vs \(openSSL.publicKey)")
                    }
                    continue
                }
                compared += 1
                let swift = CertificateFacts(swiftCertificates: certificate, depth: index)
                if swift != openSSL { disagreements.append("\(file)#\(index): \(Self.difference(swift, openSSL))") }
            }
        }
        #expect(compared > 100)
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(20).joined(separator: "\n"))")
    }

    /// The inputs the differential fuzz target (NIOStack/Scripts/fuzz) stopped at: `Fuzz/findings` those the adapters
    /// now read alike, `Fuzz/findings/open` (absent when there are none) those they do not yet.
    private static func findings(_ folder: String) throws -> [(name: String, der: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/\(folder)")
        guard folder == "findings" || FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".der") }.sorted().map {
            ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    @Test("every disagreement the differential fuzz target found and the adapters mend reads the same on both stacks")
    func mendedFindingsAgree() throws {
        let findings = try Self.findings("findings")
        #expect(findings.count >= 18)
        for finding in findings {
            #expect(FactsDifference.of(finding.der) == nil, "\(finding.name)")
        }
    }

    @Test("the findings left open still differ: once one agrees, it moves to the mended ones")
    func openFindingsStillDiffer() throws {
        for finding in try Self.findings("findings/open") {
            #expect(FactsDifference.of(finding.der) != nil, "\(finding.name) now agrees: move it to Fuzz/findings")
        }
    }

    /// The fields that differ, swift-certificates' reading first.
    private static func difference(_ swift: CertificateFacts, _ openSSL: CertificateFacts) -> String {
        let left = Mirror(reflecting: swift).children
        let right = Array(Mirror(reflecting: openSSL).children)
        return zip(left, right).compactMap { lhs, rhs in
            "\(lhs.value)" == "\(rhs.value)" ? nil : "\(lhs.label ?? "?"): \(lhs.value) vs \(rhs.value)"
        }.joined(separator: "; ")
    }
}
