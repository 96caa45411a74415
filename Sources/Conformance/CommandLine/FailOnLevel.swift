import ArgumentParser
import ConformanceModel

/// `--fail-on must|should`: a level as the command line spells it, in lower case.
enum FailOnLevel: String, CaseIterable, ExpressibleByArgument {
    case must, should

    init(_ level: ConformanceLevel) {
        switch level {
        case .must: self = .must
        case .should: self = .should
        }
    }

    var level: ConformanceLevel {
        switch self {
        case .must: .must
        case .should: .should
        }
    }
}
