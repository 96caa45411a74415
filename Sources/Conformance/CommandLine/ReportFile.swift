import ConformanceModel
import ConformanceReports
import Foundation

/// A JSON report given to `compare` or `report`, read with the statuses of ``CommandFailure``: a missing or
/// unreadable file is ``CommandFailure/Status/noInput``, anything that is not a report this build can read
/// ``CommandFailure/Status/data``.
enum ReportFile {

    static func load(_ path: String) throws -> SuiteReport {
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure(.noInput, "no such report: \(path)") }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure(.noInput, "cannot read \(path): \(CommandFailure.oneLine(error))")
        }
        // The schema's major version first: a report of another major may decode by chance and mean something else.
        struct Header: Decodable { var schemaVersion: String }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw CommandFailure(.data, "\(path) is not a conformance JSON report (no schemaVersion)")
        }
        let major = header.schemaVersion.prefix { $0 != "." }
        guard SuiteReport.readableSchemaMajors.contains(String(major)) else {
            throw CommandFailure(
                .data,
                "\(path) has schema \(header.schemaVersion); this build reads schema \(SuiteReport.readableSchemaMajors.map { "\($0).x" }.joined(separator: " and "))"
            )
        }
        do { return try JSONReport.decode(data) } catch {
            throw CommandFailure(.data, "\(path) is not a valid report: \(CommandFailure.oneLine(error))")
        }
    }
}
