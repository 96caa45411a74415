/// A cancelable that owns other cancelables and cancels them all, in the order they were added.
///
/// Anything added after the bag was cancelled is cancelled at once. Adding and cancelling are atomic
/// with respect to each other, so a child is never lost between the two.
public final class CancelableBag: Cancelable {

    private let children: Locked<[any Cancelable]?>

    /// Creates a bag holding `cancelables`.
    public init<S: Sequence>(_ cancelables: S) where S.Element == any Cancelable {
        children = Locked(Array(cancelables))
    }

    /// Creates an empty bag.
    public convenience init() {
        self.init([])
    }

    /// Whether the bag has been cancelled.
    public var isCancelled: Bool { children.withLock { $0 == nil } }

    /// Adds a child, or cancels it at once if the bag is already cancelled.
    public func add(cancelable: any Cancelable) {
        let stored = children.withLock { children -> Bool in
            guard children != nil else { return false }
            children!.append(cancelable)
            return true
        }
        if !stored { cancelable.cancel() }
    }

    /// Cancels every child, once; later calls do nothing.
    public func cancel() {
        let toCancel = children.withLock { children -> [any Cancelable] in
            defer { children = nil }
            return children ?? []
        }
        toCancel.forEach { $0.cancel() }
    }

    /// Adds `rhs` to the bag; `nil` is ignored.
    public static func += (lhs: CancelableBag, rhs: (any Cancelable)?) {
        guard let rhs else { return }
        lhs.add(cancelable: rhs)
    }
}
