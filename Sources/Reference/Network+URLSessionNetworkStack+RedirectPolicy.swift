extension Network.URLSessionNetworkStack {

    /// Which redirects a stack follows.
    public struct RedirectPolicy: Sendable, Hashable {
        /// The most redirects followed in a row; 0 follows none.
        public let maximum: Int

        /// Follows up to `maximum` redirects in a row; one more fails the fetch with
        /// `URLError.httpTooManyRedirects`. A negative maximum is taken as 0.
        public static func follow(maximum: Int) -> RedirectPolicy { RedirectPolicy(maximum: max(0, maximum)) }

        /// Follows no redirect: a 3xx response is returned as `Network/URLSessionError/http(_:_:_:)`.
        public static let never = RedirectPolicy(maximum: 0)

        /// Whether any redirect is followed.
        public var follows: Bool { maximum > 0 }
    }
}
