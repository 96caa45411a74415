import Foundation

/// The names `docs/conformance/report.schema.json` allows, read from the schema, for the tests that hold the
/// suite's `known` lists to them.
enum ReportSchemaNames {
    /// The `enum` at this path of keys in the schema, or an empty list.
    static func names(at path: [String]) -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/conformance/report.schema.json")
        var node = (try? Data(contentsOf: url)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
        for key in path { node = (node as? [String: Any])?[key] }
        return (node as? [String: Any])?["enum"] as? [String] ?? []
    }
}
