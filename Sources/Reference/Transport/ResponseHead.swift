/// One response head as it arrived: status line and header fields, in order.
struct ResponseHead: Equatable, Sendable {
    /// The status code, or 0 when the status line has none.
    var status: Int
    /// The protocol of the status line (`HTTP/1.1`).
    var version: String
    /// The header fields, in order, names as sent.
    var fields: [Field] = []

    struct Field: Equatable, Sendable {
        var name: String
        var value: String
    }

    /// The value of the first field of that name (compared without case), if any.
    func value(of name: String) -> String? {
        fields.first { $0.name.utf8.count == name.utf8.count && $0.name.lowercased() == name }?.value
    }

    /// The fields merged by name as `HTTPURLResponse` wants them: repeated names joined with ", ".
    var mergedFields: [String: String] {
        // Sized up front: growing a dictionary field by field costs more than filling it.
        var merged = [String: String](minimumCapacity: fields.count)
        for field in fields {
            if let existing = merged[field.name] {
                merged[field.name] = existing + ", " + field.value
            } else {
                merged[field.name] = field.value
            }
        }
        return merged
    }
}
