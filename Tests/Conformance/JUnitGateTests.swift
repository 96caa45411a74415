import Conformance
import Foundation
import Testing

/// A JUnit dashboard turns red exactly when the run's exit status says it failed.
@Suite("JUnit follows the run's gate")
struct JUnitGateTests {

    private let report: SuiteReport = {
        let cases = [(ConformanceLevel.must, Verdict.fail), (.should, .fail), (.should, .hang), (.must, .pass)].enumerated().map {
            index, entry in
            CaseResult(
                id: "a.case-\(index)", title: "case \(index)", rules: ["FETCH-1"], level: entry.0, verdict: entry.1,
                reason: entry.1 == .pass ? nil : "because", mismatches: [],
                expected: .init(outcome: Outcome(kind: .success), journal: .any, checks: []), actual: Outcome(kind: .success),
                completions: 1, journal: [], durationMilliseconds: 1)
        }
        return SuiteReport(
            subject: .init(name: "s", summary: "s", unsupportedFeatures: [:]), startedAt: Date(), durationSeconds: 1, cases: cases)
    }()

    @Test("under --fail-on must, a SHOULD case that did not pass is skipped with its verdict, not a failure or an error")
    func shouldFailuresSkippedUnderMust() {
        let xml = JUnitReport.render(report, failingOn: .must)
        #expect(xml.contains(#"tests="4" failures="1" errors="0" skipped="2""#))
        #expect(xml.contains(#"<failure message="because" type="FAIL">"#))
        #expect(
            xml.contains(
                #"<property name="verdict" value="FAIL"/><property name="level" value="SHOULD"/></properties>"#
                    + "\n" + #"      <skipped message="SHOULD case FAIL, which does not fail a run under --fail-on must: because"/>"#))
        #expect(xml.contains(#"<skipped message="SHOULD case HANG, which does not fail a run under --fail-on must: because"/>"#))
        #expect(xml.components(separatedBy: "<system-out>").count == 3, "the details of each skipped failure are kept")
        #expect(report.passes(failingOn: .must) == false, "the MUST failure still fails the run, as its <failure> says")
    }

    @Test("under --fail-on should, every case that did not pass is a failure or an error")
    func everythingGatesUnderShould() {
        let xml = JUnitReport.render(report, failingOn: .should)
        #expect(xml.contains(#"tests="4" failures="2" errors="1" skipped="0""#))
        #expect(!xml.contains("<skipped"))
    }
}
