import Conformance
import Foundation
import ReferenceConformance

/// One run of the whole catalogue against the reference stack, shared by the tests that read it (the
/// suite takes seconds; running it once keeps `swift test` fast).
enum ReferenceRun {
    static let report: Task<SuiteReport, Error> = Task {
        let runner = try ConformanceRunner(subject: ReferenceSubject())
        return await runner.run(Catalogue.all)
    }
}
