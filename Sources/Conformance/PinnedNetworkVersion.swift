import ConformanceModel

/// The release of this package, which `conformance version` and `conformance --version` print beside the suite's
/// version (`SuiteReport.suiteVersion`) and its report schema's
/// (`SuiteReport.schemaVersion`).
///
/// The three move apart: the package's release grows with any change to its libraries, the suite's version with
/// any change to the catalogue of cases, the schema's with any change to the JSON report.
// Not `ConformanceVersion`: the symbol graph leaves out a type named after its module followed by `Version` (the
// name a C framework's version number has), so DocC and Scripts/api-dump would not see it.
public enum PinnedNetworkVersion {
    /// The package's release, in semantic versioning: `-dev` after the number of the next release marks a build of
    /// changes made since the last one (the CHANGELOG's Unreleased section), not a release.
    public static let package = "0.9.0-dev"

    /// The last release (the CHANGELOG's newest dated section), which a dependency line can name.
    public static let lastRelease = "0.8.0"

    /// What `conformance --version` prints: the three versions on one line.
    static var line: String {
        "PinnedNetwork \(package), conformance suite \(SuiteReport.suiteVersion), report schema \(SuiteReport.schemaVersion)"
    }

    /// What `conformance version` prints: each version with what it is the version of.
    static var explained: String {
        let release =
            package.hasSuffix("-dev")
            ? "a build of changes made after release \(lastRelease), to be released as \(package.dropLast(4))"
            : "a release"
        return """
            PinnedNetwork \(package): the package (its libraries and commands); \(release)
            conformance suite \(SuiteReport.suiteVersion): the catalogue of cases; reports of one suite version have the same cases
            report schema \(SuiteReport.schemaVersion): the JSON report's format; within \(SuiteReport.schemaVersion.prefix { $0 != "." }).x fields are only added
            """
    }
}
