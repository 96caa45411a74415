import Foundation
import Reference
import Testing

/// Root files are read when the configuration is made, and a mistake is named there.
@Suite("TrustRoots from files: mistakes named at once")
struct TrustRootsFileTests {

    private func reason(_ make: () throws -> TrustRoots) -> String? {
        do {
            _ = try make()
            return nil
        } catch let error as ServerCertificate.ReadError {
            return "\(error)"
        } catch {
            return "another error: \(error)"
        }
    }

    @Test("an empty list of files is refused: it would trust no root")
    func emptyListRefused() {
        #expect(
            reason { try .only(pemFiles: []) }
                == "cannot read certificates from TrustRoots.only(pemFiles:): no file given: no root would be trusted (TrustRoots.none says that on purpose)"
        )
    }

    @Test("a missing file is named as missing, a folder as a folder")
    func missingFileNamed() {
        #expect(reason { try .only(pemFiles: ["/no/such/root.pem"]) } == "cannot read certificates from /no/such/root.pem: no such file")
        #expect(reason { try .only(pemFiles: [NSTemporaryDirectory()]) }?.hasSuffix("it is a folder, not a PEM file") == true)
    }

    @Test("a DER file is told apart from a file without certificates")
    func derFileNamed() throws {
        let der = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString).der")
        defer { try? FileManager.default.removeItem(at: der) }
        let certificate = try ServerCertificate.certificates(pemFile: Fixtures.path("roots/root-a.pem"))[0]
        try certificate.der.write(to: der)
        #expect(
            reason { try .only(pemFiles: [der.path]) }?.hasSuffix("not PEM text (a DER file? convert it with openssl x509 -inform der)")
                == true)
    }
}
