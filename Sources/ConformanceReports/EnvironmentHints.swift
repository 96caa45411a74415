import ConformanceCatalogue
import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a run's failures suggest a subject does with its ``StackEnvironment``: a field it seems to ignore, named once,
/// with the cases it cost, so that a stack's author who never passed `resolveOverrides` to the stack reads that,
/// not 27 unrelated-looking failures.
///
/// A hint is drawn from the report and the catalogue alone: for each field, the cases that set it and whose failure
/// shows the symptom of a stack that ignores it (a host name that could not be found, a trusted root refused, a date
/// judged at the wrong time, a limit never applied). It is given when at least two of them show it and they are at
/// least half the cases that set the field and ran; it says "seems", as a heuristic must.
package struct EnvironmentHint: Sendable, Hashable {
    /// The field of ``StackEnvironment`` (`resolveOverrides`).
    package var field: String
    /// What its symptom was.
    package var symptom: String
    /// The cases that showed it, in the report's order.
    package var cases: [String]
    /// How many cases set the field and ran.
    package var ran: Int

    /// One line: `the subject seems to ignore StackEnvironment.resolveOverrides: 27 of the 30 cases that set it failed …`.
    package var text: String {
        let listed = cases.prefix(3).joined(separator: ", ") + (cases.count > 3 ? ", …" : "")
        return
            "the subject seems to ignore StackEnvironment.\(field): \(cases.count) of the \(ran) cases that set it \(symptom) (\(listed))"
    }

    /// The hints a report gives, judged against `catalogue` (cases the catalogue does not have are left out).
    package static func hints(for report: SuiteReport, catalogue: [ConformanceCase] = Catalogue.all) -> [EnvironmentHint] {
        let byID = Dictionary(catalogue.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ran = report.cases.compactMap { result in byID[result.id].map { (result, $0) } }.filter { $0.0.verdict != .skip }
        return probes.compactMap { probe in
            let setting = ran.filter { probe.sets($0.1) }
            let showing = setting.filter { ![.pass, .skip].contains($0.0.verdict) && probe.shows($0.0) }
            guard showing.count >= 2, showing.count * 2 >= setting.count else { return nil }
            return EnvironmentHint(field: probe.field, symptom: probe.symptom, cases: showing.map(\.0.id), ran: setting.count)
        }
    }

    /// A field, which cases set it, and how a failure looks when the stack ignored it.
    private struct Probe: Sendable {
        var field: String
        var symptom: String
        var sets: @Sendable (ConformanceCase) -> Bool
        var shows: @Sendable (CaseResult) -> Bool
    }

    private static func code(_ result: CaseResult) -> URLError.Code? {
        guard result.actual?.kind == .url, let code = result.actual?.urlErrorCode else { return nil }
        return URLError.Code(rawValue: code)
    }

    private static func expectsSuccess(_ result: CaseResult) -> Bool { result.expected.outcome.kind == .success }

    private static func expectsRefusal(_ result: CaseResult) -> Bool {
        result.expected.outcome.kind == .url && result.actual?.kind == .success
    }

    private static let trustCodes: Set<URLError.Code> = [
        .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot, .secureConnectionFailed,
    ]

    private static let probes: [Probe] = [
        Probe(
            field: "resolveOverrides", symptom: "failed as if the name were looked up in DNS (cannotFindHost)",
            sets: { $0.requires.contains(.resolveOverrides) },
            shows: { [.cannotFindHost, .dnsLookupFailed].contains(code($0)) }),
        Probe(
            field: "trustedRootFiles", symptom: "refused a chain to the root it was told to trust",
            sets: { $0.stack.trustedRoots?.isEmpty == false },
            shows: { expectsSuccess($0) && code($0).map(trustCodes.contains) == true }),
        Probe(
            field: "verificationTime", symptom: "judged certificates at another time than the one given",
            sets: { $0.stack.verificationTime != nil },
            shows: { (expectsSuccess($0) && code($0).map(trustCodes.contains) == true) || expectsRefusal($0) }),
        Probe(
            field: "resourceTimeout", symptom: "ran past the timeout they set",
            sets: { $0.stack.resourceTimeout != nil },
            shows: { $0.verdict == .hang || ($0.expected.outcome.urlErrorCode == URLError.Code.timedOut.rawValue && code($0) != .timedOut) }
        ),
        Probe(
            field: "maximumResponseSize", symptom: "accepted a body over the size they set",
            sets: { $0.stack.maximumResponseSize != nil },
            shows: { $0.expected.outcome.urlErrorCode == URLError.Code.dataLengthExceedsMaximum.rawValue && $0.actual?.kind == .success }),
        Probe(
            field: "maximumChainDepth", symptom: "accepted a chain deeper than the bound they set",
            sets: { $0.stack.maximumChainDepth != nil }, shows: { expectsRefusal($0) }),
        Probe(
            field: "revocation", symptom: "trusted a certificate the revocation data they set says is revoked or unknown",
            sets: { $0.stack.revocation != nil }, shows: { expectsRefusal($0) }),
        Probe(
            field: "maximumRedirects", symptom: "followed another number of redirects than the limit they set",
            sets: { $0.stack.maximumRedirects != nil },
            shows: { expectsSuccess($0) ? code($0) == .httpTooManyRedirects : $0.actual?.kind != .url || code($0) == .timedOut }),
    ]
}
