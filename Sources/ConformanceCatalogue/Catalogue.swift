import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

/// The catalogue: every conformance case, grouped by family.
///
/// Families are plain arrays built from data; parameterised families (status classes, boundaries, the
/// priority table, transport faults, fixture scenarios) generate one case per member, each checking
/// something distinct. IDs never change meaning.
public enum Catalogue {

    /// Every case, in a stable order. Built once: the cases are values, and building them all (with their
    /// HTTP/2 variants) is enough work that a caller filtering the catalogue case by case would notice.
    public static let all: [ConformanceCase] = cases(reading: try? FixtureCatalogue.locate())

    /// Every case, built from these fixtures (the certificate catalogue and its manifest, and the gzip bomb beside
    /// it), which is what `all` holds when they are the ones it finds.
    ///
    /// - Throws: `CatalogueIncomplete` when a family cannot read what it needs of them: never a shorter catalogue.
    public static func cases(from fixtures: FixtureCatalogue) throws(CatalogueIncomplete) -> [ConformanceCase] {
        let problems = CatalogueIncomplete.problems(locating: { fixtures })
        guard problems.isEmpty else { throw CatalogueIncomplete(problems: problems) }
        return cases(reading: fixtures)
    }

    /// The families, those that read fixtures empty without them.
    private static func cases(reading fixtures: FixtureCatalogue?) -> [ConformanceCase] {
        let gzipBomb = fixtures.flatMap { try? Data(contentsOf: $0.gzipBombFile) }
        let trust = trust(fixtures)
        let pinning = pinning(fixtures)
        let sizeLimits = responseSize(gzipBomb: gzipBomb)
        let overHTTP2 =
            (errors + body + sizeLimits + transport + redirects + retry + interceptors + cancellation + trust + resumption + pinning
            + clientCertificates).compactMap(\.overHTTP2)
        return errors + body + headerInjection + sizeLimits + transport + hostile + redirects + retry
            + retryTiming + priority + interceptors + authentication + cancellation + trust + profile(fixtures) + hostSpelling
            + resumption + pinning + policyDepth + pinningConfiguration + clientCertificates + revocation + http2 + overHTTP2
    }

    /// The cases whose ID matches a glob (`*` any run of characters, `?` one character); several globs
    /// separated by commas match any.
    public static func filter(_ cases: [ConformanceCase], glob: String) -> [ConformanceCase] {
        let patterns = glob.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        return cases.filter { testCase in patterns.contains { Glob.matches($0, testCase.id) } }
    }

    /// The cases that check any of these rules of `docs/spec` (`["PIN-7", "TRUST-3"]`).
    public static func filter(_ cases: [ConformanceCase], rules: Set<String>) -> [ConformanceCase] {
        cases.filter { !rules.isDisjoint(with: $0.rules) }
    }

    // MARK: Building blocks shared by the families

    /// A 200 with a text body.
    static func ok(_ body: String = "ok") -> MockResponse {
        MockResponse(status: 200, body: Data(body.utf8))
    }

    /// A response with a status and an optional text body.
    static func status(_ code: Int, _ body: String = "") -> MockResponse {
        MockResponse(status: code, body: Data(body.utf8))
    }

    /// Expects success with a body.
    static func success(_ body: String? = "ok", status: Int? = 200) -> Outcome {
        Outcome(kind: .success, status: status, body: body)
    }

    /// Expects a URLError with a code.
    static func url(_ code: URLError.Code) -> Outcome {
        Outcome(kind: .url, urlErrorCode: code.rawValue)
    }
}

/// Shell-style glob matching for case IDs.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern)
        let t = Array(text)
        var pi = 0
        var ti = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                pi += 1; ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
