import Foundation

/// The report as JUnit XML, for CI systems: one `testsuite` per case family, one `testcase` per case
/// (`classname` the family, `name` the case ID); FAIL and FLAKY are `failure`, ERROR, HANG and CRASH are
/// `error`, SKIP is `skipped`; a verdict this version does not know is `error`.
public enum JUnitReport {

    /// Renders a report.
    public static func render(_ report: SuiteReport) -> String {
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
        xml +=
            #"<testsuites name="\#(escape(report.suite)) (\#(escape(report.subject.name)))" tests="\#(s.total)" failures="\#(s.fail + (s.flaky ?? 0))" errors="\#(s.error + s.hang + (s.crash ?? 0))" skipped="\#(s.skip)" time="\#(String(format: "%.3f", report.durationSeconds))">"#
            + "\n"
        for family in order {
            let results = families[family]!
            func count(_ verdicts: Verdict...) -> Int { results.filter { verdicts.contains($0.verdict) }.count }
            let time = results.reduce(0) { $0 + $1.durationMilliseconds }
            xml +=
                #"  <testsuite name="\#(escape(family))" tests="\#(results.count)" failures="\#(count(.fail, .flaky))" errors="\#(count(.error, .hang, .crash))" skipped="\#(count(.skip))" time="\#(seconds(time))">"#
                + "\n"
            for result in results {
                xml +=
                    #"    <testcase classname="\#(escape(family))" name="\#(escape(result.id))" time="\#(seconds(result.durationMilliseconds))""#
                let detail =
                    "[\(result.level.rawValue)] \(result.title) (\(result.rules.joined(separator: ", ")))\n"
                    + (result.explanation.map { "why: \($0)\n" } ?? "")
                    + result.rules.compactMap { rule in report.rules?[rule].map { "\(rule) \($0.level.rawValue): \($0.summary)\n" } }
                    .joined()
                    + "expected: \(result.expected.outcome)\nactual: \(result.actual.map { "\($0)" } ?? "none")\n"
                    + result.mismatches.joined(separator: "\n")
                // Properties make the rules visible for every case, passing ones included.
                let properties =
                    "      <properties>" + result.rules.map { #"<property name="rule" value="\#(escape($0))"/>"# }.joined()
                    + "</properties>\n"
                switch result.verdict {
                case .pass:
                    xml += ">\n" + properties + "    </testcase>\n"
                case .skip:
                    xml += ">\n" + properties + "      <skipped message=\"\(escape(result.reason ?? ""))\"/>\n    </testcase>\n"
                case .fail, .flaky:
                    xml +=
                        ">\n" + properties
                        + "      <failure message=\"\(escape(result.reason ?? ""))\" type=\"\(result.verdict.rawValue)\">\(escape(detail))</failure>\n    </testcase>\n"
                default:  // ERROR, HANG, CRASH, and a verdict this version does not know: failing closed
                    xml +=
                        ">\n" + properties
                        + "      <error message=\"\(escape(result.reason ?? ""))\" type=\"\(result.verdict.rawValue)\">\(escape(detail))</error>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

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
