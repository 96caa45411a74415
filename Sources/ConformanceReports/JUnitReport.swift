import ConformanceModel
import Foundation
import NetworkCore

/// The report as JUnit XML, for CI systems: one `testsuite` per case family, one `testcase` per case
/// (`classname` the family, `name` the case ID); FAIL and FLAKY are `failure`, ERROR, HANG and CRASH are
/// `error`, SKIP is `skipped`; a verdict this version does not know is `error`.
///
/// A case that did not pass but cannot fail the run (a SHOULD case under `--fail-on must`) is `skipped`, its message
/// saying so, with its verdict and level as properties and the details in `system-out`: a CI dashboard reading the
/// file turns red exactly when the run's exit status does.
public enum JUnitReport {

    /// Renders a report, for a run whose gate is `failingOn` (the `--fail-on` level).
    public static func render(_ report: SuiteReport, failingOn gate: ConformanceLevel = .must) -> String {
        /// Whether a verdict that is not a pass counts against the run, as `SuiteReport.passes(failingOn:)` decides.
        func gates(_ result: CaseResult) -> Bool { gate == .should || result.level == .must }
        var families: [String: [CaseResult]] = [:]
        var order: [String] = []
        for result in report.cases {
            let family = String(result.id.prefix { $0 != "." })
            if families[family] == nil { order.append(family) }
            families[family, default: []].append(result)
        }
        func seconds(_ ms: Double) -> String { String(format: "%.3f", ms / 1000) }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let s = report.summary
        func count(_ results: [CaseResult], _ verdicts: Verdict...) -> Int {
            results.filter { verdicts.contains($0.verdict) && gates($0) }.count
        }
        let all = report.cases
        let failures = count(all, .fail, .flaky)
        let errors = all.filter { ![.pass, .skip, .fail, .flaky].contains($0.verdict) && gates($0) }.count
        xml +=
            #"<testsuites name="\#(escape(report.suite)) (\#(escape(report.subject.name)))" tests="\#(s.total)" failures="\#(failures)" errors="\#(errors)" skipped="\#(s.total - s.pass - failures - errors)" time="\#(String(format: "%.3f", report.durationSeconds))">"#
            + "\n"
        for family in order {
            let results = families[family]!
            let time = results.reduce(0) { $0 + $1.durationMilliseconds }
            let failures = count(results, .fail, .flaky)
            let errors = results.filter { ![.pass, .skip, .fail, .flaky].contains($0.verdict) && gates($0) }.count
            let passes = results.filter { $0.verdict == .pass }.count
            xml +=
                #"  <testsuite name="\#(escape(family))" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" skipped="\#(results.count - passes - failures - errors)" time="\#(seconds(time))">"#
                + "\n"
            for result in results {
                xml +=
                    #"    <testcase classname="\#(escape(family))" name="\#(escape(result.id))" time="\#(seconds(result.durationMilliseconds))""#
                let detail =
                    "[\(result.level.rawValue)] \(result.title) (\(result.rules.joined(separator: ", ")))\n"
                    + (result.explanation.map { "why: \($0)\n" } ?? "")
                    + result.rules.compactMap { rule in report.rules?[rule].map { "\(rule) \($0.level.rawValue): \($0.summary)\n" } }
                    .joined()
                    + "expected: \(result.expected.outcome)\nactual: \(result.actual.map { bounded("\($0)") } ?? "none")\n"
                    + result.mismatches.map(bounded).joined(separator: "\n")
                // Properties make the rules visible for every case, passing ones included.
                var properties =
                    "      <properties>" + result.rules.map { #"<property name="rule" value="\#(escape($0))"/>"# }.joined()
                let notGating = ![.pass, .skip].contains(result.verdict) && !gates(result)
                if notGating {
                    properties +=
                        #"<property name="verdict" value="\#(escape(result.verdict.rawValue))"/><property name="level" value="\#(result.level.rawValue)"/>"#
                }
                properties += "</properties>\n"
                switch result.verdict {
                case .pass:
                    xml += ">\n" + properties + "    </testcase>\n"
                case _ where notGating:
                    let message =
                        "\(result.level.rawValue) case \(result.verdict.rawValue), which does not fail a run under --fail-on \(gate.rawValue.lowercased()): \(bounded(result.reason ?? ""))"
                    xml +=
                        ">\n" + properties
                        + "      <skipped message=\"\(escape(message))\"/>\n      <system-out>\(escape(detail))</system-out>\n    </testcase>\n"
                case .skip:
                    xml += ">\n" + properties + "      <skipped message=\"\(escape(bounded(result.reason ?? "")))\"/>\n    </testcase>\n"
                case .fail, .flaky:
                    xml +=
                        ">\n" + properties
                        + "      <failure message=\"\(escape(bounded(result.reason ?? "")))\" type=\"\(result.verdict.rawValue)\">\(escape(detail))</failure>\n    </testcase>\n"
                default:  // ERROR, HANG, CRASH, and a verdict this version does not know: failing closed
                    xml +=
                        ">\n" + properties
                        + "      <error message=\"\(escape(bounded(result.reason ?? "")))\" type=\"\(result.verdict.rawValue)\">\(escape(detail))</error>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// What a subject or a server wrote, cut to 600 characters: a 100 KiB reason must not fill a CI page.
    private static func bounded(_ text: String) -> String { DisplayText.bounded(text, limit: 600) }

    /// Escapes text for XML attributes and content, dropping characters XML 1.0 cannot hold.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += " "
            default:
                if scalar.value < 0x20 || (0xD800...0xDFFF).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
