import Foundation

extension ClosedRange where Bound == Date {
    /// The dates both ranges hold, or `nil` when they share none.
    func intersection(_ other: ClosedRange<Date>) -> ClosedRange<Date>? {
        overlaps(other) ? Swift.max(lowerBound, other.lowerBound)...Swift.min(upperBound, other.upperBound) : nil
    }
}
