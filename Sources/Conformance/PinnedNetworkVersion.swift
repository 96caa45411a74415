/// The release of this package, which `conformance version` and `conformance --version` print beside the suite's
/// version (``SuiteReport/suiteVersion-type.property``) and its report schema's
/// (``SuiteReport/schemaVersion-type.property``).
///
/// The three move apart: the package's release grows with any change to its libraries, the suite's version with
/// any change to the catalogue of cases, the schema's with any change to the JSON report.
// Not `ConformanceVersion`: the symbol graph leaves out a type named after its module followed by `Version` (the
// name a C framework's version number has), so DocC and Scripts/api-dump would not see it.
public enum PinnedNetworkVersion {
    /// The package's release, in semantic versioning.
    public static let package = "0.8.0"

    /// What `conformance version` prints: the package's release, the suite's version and the report schema's.
    static var line: String {
        "PinnedNetwork \(package), conformance suite \(SuiteReport.suiteVersion), report schema \(SuiteReport.schemaVersion)"
    }
}
