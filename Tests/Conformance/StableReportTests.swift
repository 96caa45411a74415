import Conformance
import Foundation
import TestTraits
import Testing
import ReferenceConformance

/// The JSON report of a run with its timings removed, as a comparable value.
private func untimed(_ report: SuiteReport) throws -> NSDictionary {
    var object = try #require(try JSONSerialization.jsonObject(with: JSONReport.encode(report)) as? [String: Any])
    object["startedAt"] = nil
    object["durationSeconds"] = nil
    object["cases"] = (object["cases"] as? [[String: Any]])?.map { entry -> [String: Any] in
        var entry = entry
        entry["durationMilliseconds"] = nil
        // HPACK Huffman-codes the `:authority`, whose port differs between runs, and not every digit's code has the
        // same length: over HTTP/2 the byte count moves by a byte or two, so only "some bytes" is compared.
        entry["journal"] = (entry["journal"] as? [[String: Any]])?.map { connection -> [String: Any] in
            var connection = connection
            if connection["http2"] as? Bool == true {
                connection["applicationBytesReceived"] = (connection["applicationBytesReceived"] as? Int ?? 0) > 0
                connection["requestBytesReceived"] = (connection["requestBytesReceived"] as? Int ?? 0) > 0
            }
            return connection
        }
        return entry
    }
    return object as NSDictionary
}

@Suite("Reports are stable and lean", .scaledTimeLimit(minutes: 1), .blocking)
struct StableReportTests {

    @Test("two runs of the same subject give the same JSON apart from timings")
    func sameJSONTwice() throws {
        // Cases whose journal or detail depends on a race the spec allows are left out: a reset racing the connect,
        // and a stall before the handshake or the request, where the reference's idle timer and libcurl's connect
        // timeout race to report the same timedOut with different detail text.
        let racy: Set<String> = [
            "transport.reset-at-accept", "transport.tls.reset-at-accept",
            "transport.stall-at-accept", "transport.tls.stall-after-client-hello",
            // Over HTTP/2 the client may be writing (a SETTINGS acknowledgement, a WINDOW_UPDATE, the body) when the
            // reset or close lands, so libcurl reports a send, a receive or a stream failure: the same
            // networkConnectionLost either way.
            "transport.reset-after-request.h2", "transport.reset-mid-body.h2", "transport.reset-mid-request-body.h2",
            "transport.close-mid-request-body.h2",
            // libcurl may open a fresh connection to send the lost POST again before the stack stops it, or give up
            // at once: the same networkConnectionLost, with one connection or two in the journal.
            "transport.keep-alive-lost.post-not-sent-again",
            // The server stops reading after the read that brought the body's first bytes, and how much that read
            // holds depends on how the client's writes arrived: the same timedOut, with 16 384 bytes or a few more.
            "transport.stall-mid-request-body",
        ]
        let cases = Catalogue.filter(
            Catalogue.all, glob: "transport.*,trust.standard.*,pin.no-rescue.*,body.large,body.size-limit.*,redirect.*"
        )
        .filter { !racy.contains($0.id) }
        let runner = try ConformanceRunner(subject: ReferenceSubject())
        let first = try untimed(runner.run(cases))
        let second = try untimed(runner.run(cases))
        for (a, b) in zip(first["cases"] as? [NSDictionary] ?? [], second["cases"] as? [NSDictionary] ?? []) where a != b {
            Issue.record("\(a["id"] ?? "?") differs:\n\(a)\n\(b)")
        }
        #expect(first == second)
    }

    @Test("a large body is written as its length and SHA-256, not in full")
    func largeBodyIsDigested() throws {
        let report = try ConformanceRunner(subject: ReferenceSubject()).run(Catalogue.filter(Catalogue.all, glob: "body.large"))
        let json = String(decoding: try JSONReport.encode(report), as: UTF8.self)
        #expect(json.utf8.count < 8 * 1024)
        // The length and SHA-256 of "0123456789abcdef" × 65 536.
        #expect(json.contains(#""bodyLength" : 1048576"#))
        #expect(json.contains(#""bodySHA256" : "aca1cd027e979588d14b877b7b0cb8585ad9fec599eb45801992ee5382b3760f""#))
        let decoded = try JSONReport.decode(Data(json.utf8))
        #expect(decoded.cases.first?.actual?.bodySHA256 == decoded.cases.first?.expected.outcome.bodySHA256)
        #expect(decoded.cases.first?.actual?.bodySHA256?.count == 64)
    }

    // The digests of each input followed by 1025 spaces (long enough to be digested), as Python's hashlib gives them.
    @Test(
        "the digest is SHA-256",
        arguments: [
            ("", "3eaf89906b89a114e87304d01863806529f19d1910ef904e585cc0c2a3f170b9"),
            ("abc", "73536208ad99dec771187b8f4fe3aa357b06a8c6c807dbdaa6405bad5b6e2e47"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "1c48a293985e47f4e5723c78f5af26b1dbbf06e38693824a4d5cede3ae0935de"
            ),
        ])
    func digest(input: String, expected: String) throws {
        let body = input + String(repeating: " ", count: Outcome.largeBody + 1)  // long enough to be digested
        let outcome = Outcome(kind: .success, body: body)
        let decoded = try JSONDecoder().decode(Outcome.self, from: JSONEncoder().encode(outcome))
        #expect(decoded.body == nil)
        #expect(decoded.bodyLength == body.utf8.count)
        #expect(decoded.bodySHA256 == expected)
        let padded = Outcome(kind: .success, body: input)
        #expect(try JSONDecoder().decode(Outcome.self, from: JSONEncoder().encode(padded)).body == input)
    }
}

extension Outcome {
    /// The outcome as it comes back from a JSON report: a large body as its length and SHA-256.
    var withLargeBodiesDigested: Outcome {
        get throws { try JSONDecoder().decode(Outcome.self, from: JSONEncoder().encode(self)) }
    }
}

extension CaseResult {
    /// The result as it comes back from a JSON report.
    var withLargeBodiesDigested: CaseResult {
        var copy = self
        copy.expected.outcome = (try? expected.outcome.withLargeBodiesDigested) ?? expected.outcome
        copy.actual = actual.map { (try? $0.withLargeBodiesDigested) ?? $0 }
        return copy
    }
}
