import Foundation

extension ConformanceCommandLine {

    /// A failure that is not a usage error: a one-line message and the sysexits status that says what kind it is
    /// (65 bad data, 66 no input, 73 cannot create the output).
    struct CommandFailure: Error {
        let message: String
        let status: Int32
        init(_ status: Int32, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// `report --html OUT.html A.json [B.json …]`: the matrix of ``HTMLReport``, written only once it is whole.
    static func report(_ options: inout Options) throws -> Int32 {
        let output = options.value("html")
        let allowMixed = options.flag("allow-mixed")
        let specOption = options.value("spec")
        let files = options.positional
        options.positional = []
        try options.finish()
        guard let output else { throw UsageError("report needs --html OUT.html: report --html OUT.html A.json [B.json …]") }
        guard !files.isEmpty else { throw UsageError("report needs at least one JSON report: report --html OUT.html A.json [B.json …]") }
        let reports = try files.map(loadReport)
        let versions = Set(reports.map(\.suiteVersion))
        if versions.count > 1 && !allowMixed {
            let each = zip(files, reports).map { "\($0) is \($1.suiteVersion)" }.joined(separator: ", ")
            throw CommandFailure(65, "the reports are of different suite versions (\(each)); --allow-mixed draws them together")
        }
        let spec = URL(fileURLWithPath: specOption ?? "docs/spec")
        var rules: [SpecRule] = []
        if specOption != nil || FileManager.default.fileExists(atPath: spec.path) {
            do { rules = try RuleBook.load(directory: spec) } catch let error as RuleBook.FormatError {
                throw CommandFailure(65, error.description)
            } catch { throw CommandFailure(66, "cannot read the rules in \(spec.path): \(oneLine(error))") }
        } else {
            // A third party's command run outside this repository has no docs/spec: the page names the rules without their text.
            FileHandle.standardError.write(Data("warning: no docs/spec here (--spec DIR), so the page has no rule text\n".utf8))
        }
        // The JSON report has neither explanations nor rule text: this build's catalogue and rule book supply them.
        let explanations = Dictionary(Catalogue.all.map { ($0.id, $0.explanation) }, uniquingKeysWith: { first, _ in first })
        let destination = URL(fileURLWithPath: output)
        let page = HTMLReport(
            reports: reports, rules: rules, explanations: explanations,
            specLink: relativePath(from: destination.deletingLastPathComponent(), to: spec) + "/"
        ).render()
        do {
            // Atomic: a failed write leaves no partial page behind.
            try Data(page.utf8).write(to: destination, options: .atomic)
        } catch {
            throw CommandFailure(73, "cannot create \(output): \(oneLine(error))")
        }
        let cases = Set(reports.flatMap { $0.cases.map(\.id) }).count
        FileHandle.standardError.write(Data("report: \(cases) cases × \(reports.count) subject(s) written to \(output)\n".utf8))
        return 0
    }

    /// Reads one JSON report, refusing a missing file (66) and anything that is not a report this build can read (65).
    private static func loadReport(_ path: String) throws -> SuiteReport {
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure(66, "no such report: \(path)") }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure(66, "cannot read \(path): \(oneLine(error))")
        }
        // The schema's major version first: a report of another major may decode by chance and mean something else.
        struct Header: Decodable { var schemaVersion: String }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw CommandFailure(65, "\(path) is not a conformance JSON report (no schemaVersion)")
        }
        let major = { (version: String) in version.prefix { $0 != "." } }
        guard major(header.schemaVersion) == major(SuiteReport.schemaVersion) else {
            throw CommandFailure(
                65, "\(path) has schema \(header.schemaVersion); this build reads schema \(major(SuiteReport.schemaVersion)).x")
        }
        do { return try JSONReport.decode(data) } catch { throw CommandFailure(65, "\(path) is not a valid report: \(oneLine(error))") }
    }

    /// `../spec` from `docs/conformance` to `docs/spec`: rule links that work wherever the page and the spec are.
    static func relativePath(from directory: URL, to target: URL) -> String {
        let from = directory.standardizedFileURL.pathComponents
        let to = target.standardizedFileURL.pathComponents
        let common = zip(from, to).prefix { $0 == $1 }.count
        let path = Array(repeating: "..", count: from.count - common) + to.dropFirst(common)
        return path.isEmpty ? "." : path.joined(separator: "/")
    }

    /// An error as one line: the command's errors are one line each.
    static func oneLine(_ error: Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context): return "missing \(path(context.codingPath + [key]))"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return "\(context.debugDescription) at \(path(context.codingPath))"
            @unknown default: break
            }
        }
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        return "\(error.localizedDescription)".split(separator: "\n").joined(separator: " ")
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
