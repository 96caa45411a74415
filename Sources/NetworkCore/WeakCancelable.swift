/// Holds a cancelable weakly, so that a tree of cancelables does not keep finished work alive.
public final class WeakCancelable: Cancelable {

    private weak let cancelable: (any Cancelable)?

    /// Wraps `cancelable` without retaining it.
    public init(_ cancelable: any Cancelable) {
        self.cancelable = cancelable
    }

    /// The wrapped cancelable's state, or `true` once it has been released.
    public var isCancelled: Bool { cancelable?.isCancelled ?? true }

    /// Cancels the wrapped cancelable if it is still alive and not cancelled.
    public func cancel() {
        guard let cancelable, !cancelable.isCancelled else { return }
        cancelable.cancel()
    }
}
