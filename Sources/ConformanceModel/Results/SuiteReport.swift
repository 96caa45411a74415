import Foundation
import MockServer

/// The result of a run: the suite, the subject, the environment, and every case's result.
///
/// Its JSON form (`JSONReport`) follows `docs/conformance/report.schema.json`, whose version is
/// ``SuiteReport/schemaVersion-type.property``.
public struct SuiteReport: Sendable, Codable {

    /// The version of the JSON schema; bumped on any incompatible change.
    public static let schemaVersion = "3.2.0"
    /// The major schema versions this build reads: 3, and 2, whose reports differ only in carrying the harness's
    /// libcurl (``Environment/libcurl``).
    package static let readableSchemaMajors = ["2", "3"]
    /// The version of the catalogue: bumped when cases are added or retired.
    public static let suiteVersion = "0.15.0"

    /// The subject, as it describes itself.
    public struct SubjectInfo: Sendable, Codable {
        /// Its short name.
        public var name: String
        /// One line about it.
        public var summary: String
        /// Features it declared unsupported, with the reasons.
        public var unsupportedFeatures: [String: String]
        /// The libraries it runs on, as it reports them (``ConformanceSubject/libraryVersions``); `nil` when it
        /// reports none.
        public var libraryVersions: [String: String]?

        /// Creates the subject's description.
        public init(name: String, summary: String, unsupportedFeatures: [String: String], libraryVersions: [String: String]? = nil) {
            self.name = name
            self.summary = summary
            self.unsupportedFeatures = unsupportedFeatures
            self.libraryVersions = libraryVersions
        }
    }

    /// Where the run happened.
    public struct Environment: Sendable, Codable {
        /// The OpenSSL the harness's server runs on (`MockServer.openSSLVersion`).
        public var openSSL: String
        /// `curl_version()` of the harness, in reports of schema 2, when the harness linked the
        /// reference stack; `nil` since. The subject's own libraries are in ``SubjectInfo/libraryVersions``.
        public var libcurl: String?
        /// The operating system.
        public var operatingSystem: String
        /// The machine's processor count.
        public var processors: Int

        /// The environment of this process.
        public static var current: Environment {
            Environment(
                openSSL: MockServer.openSSLVersion, libcurl: nil,
                operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString,
                processors: ProcessInfo.processInfo.activeProcessorCount)
        }
    }

    /// Verdict counts.
    public struct Summary: Sendable, Codable, Hashable, CustomStringConvertible {
        public var total: Int
        public var pass: Int
        public var fail: Int
        public var skip: Int
        public var error: Int
        public var hang: Int
        /// Cases whose verdicts differed across repeated runs; `nil` when each case ran once.
        public var flaky: Int?
        /// Cases whose subject trapped, died of a signal or completed a fetch twice; `nil` in reports written
        /// before schema 2.2.0.
        public var crash: Int?
        /// MUST cases that are FAIL, ERROR, HANG, FLAKY or CRASH: non-zero fails the run.
        public var mustFailures: Int

        public var description: String {
            let flakes = flaky.map { ", \($0) flaky" } ?? ""
            // Shown only when there is one, so that the summary of a run without crashes reads as before.
            let crashes = (crash ?? 0) > 0 ? ", \(crash ?? 0) crashed" : ""
            return
                "\(total) cases: \(pass) passed, \(fail) failed, \(skip) skipped, \(error) \(error == 1 ? "error" : "errors"), \(hang) \(hang == 1 ? "hang" : "hangs")\(flakes)\(crashes) (\(mustFailures) MUST \(mustFailures == 1 ? "failure" : "failures"))"
        }
    }

    /// The schema version of this report.
    public var schemaVersion: String = SuiteReport.schemaVersion
    /// The suite's name and version.
    public var suite: String = "PinnedNetwork conformance"
    /// The catalogue version.
    public var suiteVersion: String = SuiteReport.suiteVersion
    /// The subject.
    public var subject: SubjectInfo
    /// Where it ran.
    public var environment: Environment
    /// When the run started.
    public var startedAt: Date
    /// The run's wall time.
    public var durationSeconds: Double
    /// Verdict counts.
    public var summary: Summary
    /// Every case, in catalogue order.
    public var cases: [CaseResult]
    /// The text of every rule the cases cite, by rule ID, from the `docs/spec` the run found; absent in reports
    /// of schema versions before 2.4.0, and empty when no spec was found.
    public var rules: [String: RuleText]?

    /// Creates a report; the summary is computed.
    public init(subject: SubjectInfo, environment: Environment = .current, startedAt: Date, durationSeconds: Double, cases: [CaseResult]) {
        self.subject = subject
        self.environment = environment
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.cases = cases
        rules = Self.ruleTexts(citedBy: cases)
        func count(_ verdict: Verdict) -> Int { cases.filter { $0.verdict == verdict }.count }
        summary = Summary(
            total: cases.count, pass: count(.pass), fail: count(.fail), skip: count(.skip), error: count(.error), hang: count(.hang),
            flaky: cases.contains { $0.repeatVerdicts != nil } ? count(.flaky) : nil, crash: count(.crash),
            mustFailures: cases.filter { $0.level == .must && $0.verdict.failsRun }.count)
    }

    /// Whether the run passes: no MUST case is FAIL, ERROR, HANG, FLAKY or CRASH.
    public var passed: Bool { summary.mustFailures == 0 }
}
