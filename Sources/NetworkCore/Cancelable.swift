/// Something that can be cancelled: a fetch, a pending request making, a delayed retry.
///
/// Cancelling twice does nothing the second time.
public protocol Cancelable: AnyObject, Sendable {

    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool { get }

    /// Cancels the work. Does nothing if already cancelled.
    func cancel()
}
