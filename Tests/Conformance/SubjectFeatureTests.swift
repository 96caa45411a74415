import Conformance
import Foundation
import Testing

@Suite("Subject features are open names")
struct SubjectFeatureTests {

    @Test("the known features are the ones the report schema allows, under the same names")
    func knownFeaturesAreTheSchemas() {
        let allowed = ReportSchemaNames.names(at: ["properties", "subject", "properties", "unsupportedFeatures", "propertyNames"])
        #expect(SubjectFeature.known.map(\.rawValue) == allowed)
        #expect(Set(SubjectFeature.known).count == SubjectFeature.known.count)
    }

    @Test("a feature is written as its plain name, and one this version does not know needs no case")
    func writtenAsPlainName() throws {
        #expect(String(decoding: try JSONEncoder().encode(SubjectFeature.http2), as: UTF8.self) == #""http2""#)
        let later = SubjectFeature(rawValue: "http3")
        #expect(!Catalogue.all.contains { $0.requires.contains(later) })
        #expect(Catalogue.all.allSatisfy { $0.requires.isSubset(of: SubjectFeature.known) })
    }
}
