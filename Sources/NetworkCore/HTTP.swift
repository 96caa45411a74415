/// The namespace of HTTP's vocabulary: headers, methods and status codes.
public enum HTTP {

    /// Header fields, by name.
    public typealias Headers = [String: String]

    /// A request method. The raw value is the method's name on the wire.
    public enum Method: String, Hashable, Sendable, CaseIterable {
        case GET, HEAD, POST, PUT, PATCH, DELETE, TRACE, OPTIONS
    }

    /// A response status, classified by its range. Each case carries the numeric code.
    public enum StatusCode: Hashable, Sendable {
        /// 100–199.
        case informational(Int)
        /// 200–299.
        case success(Int)
        /// 300–399.
        case redirection(Int)
        /// 400–499.
        case clientError(Int)
        /// 500–599.
        case serverError(Int)
        /// Anything outside 100–599.
        case unknownError(Int)

        /// Classifies a numeric status code by its range.
        public init(_ statusCode: Int) {
            switch statusCode {
            case 100...199: self = .informational(statusCode)
            case 200...299: self = .success(statusCode)
            case 300...399: self = .redirection(statusCode)
            case 400...499: self = .clientError(statusCode)
            case 500...599: self = .serverError(statusCode)
            default: self = .unknownError(statusCode)
            }
        }

        /// The numeric code.
        public var statusCode: Int {
            switch self {
            case .informational(let code), .success(let code), .redirection(let code),
                .clientError(let code), .serverError(let code), .unknownError(let code):
                return code
            }
        }
    }
}
