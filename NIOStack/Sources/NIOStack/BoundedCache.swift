import NetworkCore

/// A map of at most `capacity` entries, the oldest dropped first: what a stack keeps per server, which no server
/// (or a hostile fan-out to many) can grow.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private let entries = Locked<(byKey: [Key: Value], order: [Key])>(([:], []))

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many entries are kept.
    var count: Int { entries.withLock { $0.order.count } }

    subscript(key: Key) -> Value? { entries.withLock { $0.byKey[key] } }

    /// Keeps a value; a key already kept keeps its first value.
    func keep(_ value: Value, for key: Key) {
        entries.withLock { state in
            guard state.byKey.updateValue(value, forKey: key) == nil else { return }
            state.order.append(key)
            if state.order.count > capacity { state.byKey[state.order.removeFirst()] = nil }
        }
    }
}
