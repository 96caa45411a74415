/// The release of this package, which `conformance version` and `conformance --version` print beside the suite's
/// version (``SuiteReport/suiteVersion``) and its report schema's (``SuiteReport/schemaVersion``).
///
/// The three move apart: the package's release grows with any change to its libraries, the suite's version with
/// any change to the catalogue of cases, the schema's with any change to the JSON report.
public enum ConformanceVersion {
    /// The package's release, in semantic versioning.
    public static let package = "0.8.0"

    /// What `conformance version` prints: the package's release, the suite's version and the report schema's.
    static var line: String {
        "PinnedNetwork \(package), conformance suite \(SuiteReport.suiteVersion), report schema \(SuiteReport.schemaVersion)"
    }
}
