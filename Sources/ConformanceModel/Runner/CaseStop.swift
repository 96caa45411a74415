/// Why a case stops before its expectation is judged, and the verdict each reason gives.
enum CaseStop: Error {
    /// The case needs what the subject declared it cannot do: SKIP, with the subject's reason.
    case skip(String)
    /// The harness failed (a fixture missing, a server that would not start): ERROR, not the subject's fault.
    case harness(String)
    /// An event the case waits for did not come before its deadline: HANG.
    case hang(String)

    /// The verdict the case gets.
    var verdict: Verdict {
        switch self {
        case .skip: .skip
        case .harness: .error
        case .hang: .hang
        }
    }

    /// Why, for the report.
    var reason: String {
        switch self {
        case .skip(let why), .harness(let why), .hang(let why): why
        }
    }
}
