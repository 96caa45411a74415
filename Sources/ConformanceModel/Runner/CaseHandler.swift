import NetworkCore

/// A case's challenge handler, made from its ``HandlerSpec`` and wrapped to record each challenge; or, for a
/// case about a configuration error, the outcome of making it, which is then the case's whole outcome.
enum CaseHandler {
    /// The stack gets this handler (`nil`: standard validation).
    case made((any AuthenticationChallengeHandler)?)
    /// The case is judged on this outcome, and no stack is made.
    case judged(Outcome)

    /// Makes the handler of a case, recording each challenge it is asked; a handler that reconfigures itself gives
    /// `handles` its change.
    init(for testCase: ConformanceCase, fixtures: FixtureCatalogue, handles: FetchHandles, challenges: ChallengeRecorder) throws(CaseStop) {
        guard let spec = testCase.stack.handler else {
            self = .made(nil)
            return
        }
        let expectsConfigurationError = testCase.expected.outcome.kind == .configurationError
        let made: any AuthenticationChallengeHandler
        do {
            made = try spec.make(fixtures)
        } catch {
            guard expectsConfigurationError else { throw .harness("handler \(spec.name) could not be made: \(error)") }
            // The case is about the configuration itself: its error is the outcome.
            self = .judged(Outcome(kind: .configurationError, configurationError: Self.configurationErrorName(error), detail: "\(error)"))
            return
        }
        if expectsConfigurationError {
            // A configuration that should have been refused was accepted: the handler's fault, judged here,
            // before a stack that the case never required anything of could change the verdict.
            self = .judged(Outcome(kind: .success, detail: "the handler \(spec.name) was made: no configuration error"))
            return
        }
        handles.reconfigure = (made as? ReconfigurableChallengeHandler)?.reconfigure
        self = .made(RecordingChallengeHandler(wrapped: made, challenges: challenges))
    }

    /// The name a configuration error is expected by: its type and case (`PinningPolicyValidationError.invalidPins`),
    /// or its type and description for a case without a payload.
    static func configurationErrorName(_ error: any Error) -> String {
        let type = String(describing: Swift.type(of: error))
        return "\(type).\(Mirror(reflecting: error).children.first?.label ?? "\(error)")"
    }
}
