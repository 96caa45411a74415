/// A cancelable for work that cannot be cancelled, or has already finished: never cancelled, and
/// ``cancel()`` does nothing.
public final class DummyCancelable: Cancelable {

    /// Creates a dummy cancelable.
    public init() {}

    /// Always `false`.
    public var isCancelled: Bool { false }

    /// Does nothing.
    public func cancel() {}
}
