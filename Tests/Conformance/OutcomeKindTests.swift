import Conformance
import Foundation
import Testing

@Suite("Outcome kinds are open names, written as plain strings")
struct OutcomeKindTests {

    @Test("each kind is written as its plain name, and the known ones are the schema's")
    func writtenAsPlainNames() throws {
        let json = String(decoding: try JSONEncoder().encode(Outcome(kind: .decodeFailure, lastErrorKind: .http)), as: UTF8.self)
        #expect(json.contains(#""kind":"decodeFailure""#))
        #expect(json.contains(#""lastErrorKind":"http""#))
        #expect(Outcome.Kind.known.map(\.rawValue) == ReportSchemaNames.names(at: ["$defs", "kind"]))
    }

    @Test("an outcome of a kind this version does not know is read, keeps its kind, and matches no other kind")
    func unknownKindIsKept() throws {
        let read = try JSONDecoder().decode(Outcome.self, from: Data(#"{"kind":"throttled","lastErrorKind":"throttled"}"#.utf8))
        #expect(read.kind.rawValue == "throttled")
        #expect(read.lastErrorKind == Outcome.Kind(rawValue: "throttled"))
        #expect(!Outcome.Kind.known.contains(read.kind))
        #expect(Outcome(kind: .success).mismatches(against: read) == ["kind: expected success, got throttled"])
    }
}
