/// Carries out one kind of ``CaseAction``: starts the case's fetches and waits, through ``CaseWaits``, for the
/// events the action is made of. ``CaseAction/driver(endingAbandonedTransfers:)`` picks the driver of an action.
protocol CaseDriver {
    /// Runs the action to its end; a wait that runs out throws ``CaseStop/hang(_:)``.
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop)
}
