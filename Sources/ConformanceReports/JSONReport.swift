import ConformanceModel
import Foundation

/// The machine-readable report: `SuiteReport` as JSON (`docs/conformance/report.schema.json`).
public enum JSONReport {

    /// Encodes a report, pretty-printed with sorted keys, dates in ISO 8601.
    public static func encode(_ report: SuiteReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(report)
    }

    /// Decodes a report written by ``encode(_:)``.
    public static func decode(_ data: Data) throws -> SuiteReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(SuiteReport.self, from: data)
    }
}
