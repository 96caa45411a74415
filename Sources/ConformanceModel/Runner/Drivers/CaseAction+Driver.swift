extension CaseAction {
    /// The driver that carries the action out; `nil` for ``releaseStackInFlight`` and
    /// ``releaseStackWhileRetryWaits(probePath:)``, which need the runner's own reference to the stack
    /// (``stackRelease``).
    ///
    /// - Parameter endingAbandonedTransfers: whether a fetch cancelled in flight gets its connection ended by the
    ///   server (``CaseWaits/endAbandonedTransfer()``), for the cases that check no hook ran after the cancel.
    func driver(endingAbandonedTransfers: Bool) -> (any CaseDriver)? {
        switch self {
        case .fetch: SingleFetchDriver()
        case .fetchAndDecode: DecodingFetchDriver()
        case .fetchAsync: AsyncFetchDriver()
        case .cancel(let stage): CancelDriver(stage: stage, endsAbandonedTransfer: endingAbandonedTransfers)
        case .cancelAsyncTask: AsyncTaskCancelDriver()
        case .asyncFetchInCancelledTask: CancelledTaskFetchDriver()
        case .releaseStackInFlight, .releaseStackWhileRetryWaits: nil
        case .sequential(let count): SequentialFetchDriver(count: count)
        case .fetchAfterServerClose: ServerCloseFetchDriver()
        case .fetchReconfigureFetch: ReconfigureDriver()
        case .cancelWhileRetryWaits(let probePath, let retryDelay): RetryWaitCancelDriver(probePath: probePath, retryDelay: retryDelay)
        case .concurrent(let paths): ConcurrentFetchDriver(paths: paths)
        case .hosts(let hosts): HostsFetchDriver(hosts: hosts)
        }
    }

    /// The driver of an action that releases the stack, for which ``driver(endingAbandonedTransfers:)`` is `nil`.
    var stackRelease: StackReleaseDriver {
        if case .releaseStackWhileRetryWaits(let probePath) = self {
            StackReleaseDriver(probePath: probePath)
        } else {
            StackReleaseDriver()
        }
    }

    /// The host names the action fetches under besides the script's own.
    var otherHosts: [String] {
        if case .hosts(let hosts) = self { hosts } else { [] }
    }

    /// The path the case's own fetch asks for, under which ``Check/fetches(path:kind:count:)`` counts its outcome.
    var outcomePath: String {
        if case .concurrent(let paths) = self, let first = paths.first { first } else { "/" }
    }
}
