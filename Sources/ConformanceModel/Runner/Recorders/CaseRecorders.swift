import Foundation

/// Where a case's server is, and the recorders its observation is read from, each typed for what it records;
/// every stage of the case takes the ones it writes or reads. Immutable: the recorders keep their own state.
struct CaseRecorders: Sendable {
    /// The case's server URL for a path (the request makers need it).
    let url: @Sendable (String) -> URL
    /// The URL of a path on the case's server under another host name.
    let hostURL: @Sendable (_ host: String, _ path: String) -> URL
    let hooks = HookRecorder()
    let challenges = ChallengeRecorder()
    let priority = PriorityRecorder()
    let completions = CompletionRecorder()
    let handles = FetchHandles()

    init(url: @escaping @Sendable (String) -> URL, hostURL: @escaping @Sendable (String, String) -> URL = { _, path in URL(string: path)! })
    {
        self.url = url
        self.hostURL = hostURL
    }
}
