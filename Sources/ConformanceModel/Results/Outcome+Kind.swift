extension Outcome {
    /// The shape of the result: success, one of the seven `URLSessionError` cases, or a decoding failure; a stable
    /// name (``rawValue``) with a constant for each kind.
    ///
    /// Later versions may add kinds: a `switch` over kinds needs a `default`, and a kind this version does not
    /// know, read from a later version's report, keeps its name. ``known`` lists this version's.
    public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The kind's stable name (`success`, `noRequest`, …), encoded as a plain JSON string.
        public let rawValue: String

        /// The kind with this name, known to this version or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The fetch succeeded.
        public static let success = Kind(rawValue: "success")
        /// `URLSessionError.noRequest`: the request maker or an interceptor failed.
        public static let noRequest = Kind(rawValue: "noRequest")
        /// `URLSessionError.http`: the server answered with a status outside 200–299.
        public static let http = Kind(rawValue: "http")
        /// `URLSessionError.noData`: a 2xx response other than 204 or 205 arrived with no body.
        public static let noData = Kind(rawValue: "noData")
        /// `URLSessionError.url`: the transport failed.
        public static let url = Kind(rawValue: "url")
        /// `URLSessionError.badResponse`: no HTTP response came back.
        public static let badResponse = Kind(rawValue: "badResponse")
        /// `URLSessionError.retry`: a retry policy refused to retry.
        public static let retry = Kind(rawValue: "retry")
        /// `URLSessionError.cancelled`: the fetch was cancelled through its cancelable.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// `fetchAndDecode` failed in the decode step (`FetchAndDecodeError.decode`).
        public static let decodeFailure = Kind(rawValue: "decodeFailure")
        /// Building the case's trust handler threw: a configuration error, before any stack or fetch.
        public static let configurationError = Kind(rawValue: "configurationError")

        /// The kinds this version of the suite knows.
        public static let known: [Kind] = [
            .success, .noRequest, .http, .noData, .url, .badResponse, .retry, .cancelled, .decodeFailure, .configurationError,
        ]

        /// The stable name.
        public var description: String { rawValue }
    }
}
