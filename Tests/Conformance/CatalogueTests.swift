import Conformance
import Foundation
import Testing

@Suite("The catalogue is stable data")
struct CatalogueTests {

    @Test("there are at least 150 cases")
    func size() {
        #expect(Catalogue.all.count >= 150)
    }

    @Test("IDs are unique and namespaced")
    func uniqueNamespacedIDs() {
        let ids = Catalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parts = id.split(separator: ".", omittingEmptySubsequences: false)
            #expect(
                parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } },
                "\(id)")
        }
    }

    @Test("every case says what it checks and why")
    func documented() {
        for testCase in Catalogue.all {
            #expect(!testCase.title.isEmpty && !testCase.explanation.isEmpty, "\(testCase.id)")
        }
    }

    @Test("the seven URLSessionError cases each have a case that expects them")
    func everyErrorCaseIsReachable() {
        let kinds = Set(Catalogue.all.map(\.expected.outcome.kind))
        for kind: Outcome.Kind in [.noRequest, .http, .noData, .url, .badResponse, .retry, .cancelled] {
            #expect(kinds.contains(kind), "\(kind)")
        }
    }

    @Test("rule IDs select the cases that check them")
    func filterByRule() {
        let selected = Catalogue.filter(Catalogue.all, rules: ["PIN-13", "CANCEL-6"])
        #expect(
            Set(selected.map(\.id)) == [
                "pin.backup.only-backup-refused", "pin.backup.chain-pin-and-backup", "cancel.after-completion",
                "cancel.after-completion.failure", "pin.backup.only-backup-refused.h2", "pin.backup.chain-pin-and-backup.h2",
                "cancel.after-completion.h2", "cancel.after-completion.failure.h2",
            ])
    }

    @Test(
        "globs select cases by ID",
        arguments: [
            ("retry.*", "retry.action.none", true), ("retry.*", "priority.table.none.none", false),
            ("*.no-data.*", "error.no-data.status-200", true), ("error.http.status-5??", "error.http.status-503", true),
            ("error.http.status-5??", "error.http.status-404", false),
            ("cancel.*,trust.handler.*", "trust.handler.refusal-leaks-nothing", true),
        ])
    func glob(pattern: String, id: String, matches: Bool) throws {
        // Every ID here must exist, or the test would check nothing.
        let testCase = try #require(Catalogue.all.first { $0.id == id }, "no case \(id)")
        #expect(Catalogue.filter([testCase], glob: pattern).count == (matches ? 1 : 0))
    }
}

@Suite("Cases accept every honest outcome")
struct HonestOutcomeTests {

    private func expectation(_ id: String) throws -> Outcome {
        try #require(Catalogue.all.first { $0.id == id }).expected.outcome
    }

    @Test(
        "two disagreeing Content-Length headers may be a lost connection or a malformed response",
        arguments: [
            URLError.Code.networkConnectionLost, .badServerResponse,
        ])
    func conflictingContentLengthAccepts(code: URLError.Code) throws {
        let actual = Outcome(kind: .url, urlErrorCode: code.rawValue)
        #expect(try expectation("transport.conflicting-content-length").mismatches(against: actual).isEmpty)
    }

    @Test("two disagreeing Content-Length headers are never success, nor another code")
    func conflictingContentLengthRefuses() throws {
        let expected = try expectation("transport.conflicting-content-length")
        #expect(!expected.mismatches(against: Outcome(kind: .success, status: 200, body: "payload-0123456789")).isEmpty)
        #expect(!expected.mismatches(against: Outcome(kind: .url, urlErrorCode: URLError.Code.timedOut.rawValue)).isEmpty)
    }
}
