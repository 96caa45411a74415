import Foundation
@testable import MockServer
import TestTraits
import Testing

@Suite("A malformation is the response's own shape", .scaledTimeLimit(minutes: 1))
struct MalformationTests {
    @Test(
        "each malformation is named after the member that makes it",
        arguments: [
            (MockResponse.Malformation.garbageThenClose(Data("abc".utf8)), "garbageThenClose(3 bytes)"),
            (.http09Reply, "http09Reply"),
            (.missingStatus, "missingStatus"),
            (.malformedStatusLine, "malformedStatusLine"),
            (.statusLineVersion("HTTP/2"), "statusLineVersion(HTTP/2)"),
            (.headWithoutBlankLineThenClose, "headWithoutBlankLineThenClose"),
            (.oversizedHead(100), "oversizedHead(100)"),
            (.conflictingContentLength, "conflictingContentLength"),
            (.malformedChunkSize, "malformedChunkSize"),
            (.missingLastChunkThenClose, "missingLastChunkThenClose"),
            (.extraBytesBeyondContentLength(Data("EXTRA".utf8)), "extraBytesBeyondContentLength(5 bytes)"),
        ])
    func isNamedAfterItsMember(malformation: MockResponse.Malformation, name: String) {
        #expect(malformation.description == name)
    }

    @Test("a response's description names its malformation before its fault")
    func descriptionNamesTheMalformation() {
        let response = MockResponse(malformation: .http09Reply, fault: .closeAfterBodyBytes(1))
        #expect(response.description == "200 OK, 0 body bytes, malformed http09Reply, fault closeAfterBodyBytes(1)")
    }

    @Test("a malformed response is a 200 with an empty body in that shape")
    func malformedIsAnEmpty200() {
        let response = MockResponse.malformed(.missingStatus)
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.malformation == .missingStatus)
        #expect(response.fault == nil)
    }
}
