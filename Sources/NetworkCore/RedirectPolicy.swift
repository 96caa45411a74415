/// Which redirects a stack follows, and how many in a row (``RedirectRule`` decides each one under it).
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed in a row; 0 follows none.
    public let maximum: Int

    /// Follows up to `maximum` redirects in a row; one more fails the fetch with `URLError.httpTooManyRedirects`. A
    /// negative maximum is taken as 0.
    public static func follow(maximum: Int) -> RedirectPolicy { RedirectPolicy(maximum: max(0, maximum)) }

    /// Follows no redirect: a `3xx` response is the fetch's response (an HTTP error to the fetch flow).
    public static let never = RedirectPolicy(maximum: 0)

    /// URLSession's: up to ``RedirectRule/defaultMaximum`` in a row.
    public static let `default` = RedirectPolicy(maximum: RedirectRule.defaultMaximum)

    /// Whether any redirect is followed.
    public var follows: Bool { maximum > 0 }
}
