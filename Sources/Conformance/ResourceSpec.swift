import Foundation

/// The `URLSessionResource` of a case, as data: the request, the request maker, the interceptor chain,
/// error decoding, the priority closure and the empty-body escape hatch.
public struct ResourceSpec: Sendable {

    /// Where the request goes.
    public enum Target: Sendable, Hashable {
        /// This path on the case's server.
        case server(String)
        /// A loopback port nothing listens on (connection refused).
        case refusedPort
        /// A URL whose scheme HTTP stacks do not speak (`ftp://`).
        case unsupportedScheme
    }

    /// Where the request goes.
    public var target: Target = .server("/")
    /// The method.
    public var method: String = "GET"
    /// Header fields.
    public var headers: [String: String] = [:]
    /// The body.
    public var body: Data?
    /// The request's timeout interval, in seconds.
    public var timeout: TimeInterval = 5
    /// How the base request is made.
    public var requestMaking: RequestMakingSpec = .immediate
    /// The interceptor chain, in order.
    public var interceptors: [InterceptorSpec] = []
    /// How API errors are decoded from non-2xx responses.
    public var errorDecoding: ErrorDecodingSpec = .none
    /// How the interceptors' actions are combined.
    public var priority: PrioritySpec = .mostPrioritary
    /// Further 2xx codes that may come without a body.
    public var emptyBodyStatusCodes: Set<Int> = []

    /// Creates a spec; change fields with ``with(_:)``.
    public init() {}

    /// A copy changed by `change`.
    public func with(_ change: (inout ResourceSpec) -> Void) -> ResourceSpec {
        var copy = self
        change(&copy)
        return copy
    }

    /// A GET of `/`.
    public static let get = ResourceSpec()

    /// A GET of `/` with these interceptors.
    public static func intercepted(_ interceptors: InterceptorSpec...) -> ResourceSpec {
        ResourceSpec().with { $0.interceptors = interceptors }
    }
}

/// How a case's base request is made.
public enum RequestMakingSpec: Sendable, Hashable {
    /// Synchronously, with success.
    case immediate
    /// Synchronously, with a failure (`ConformanceRequestError.makerFailed`).
    case failing
    /// Asynchronously after this many seconds, with success.
    case asynchronous(after: Double)
    /// Never: the maker keeps the handler (for cancellation during request making).
    case pending
}

/// How a case decodes API errors.
public enum ErrorDecodingSpec: Sendable, Hashable {
    /// No decoding (`ErrorDecoding.dummy`).
    case none
    /// JSON `{"code": Int, "message": String}` into ``ConformanceAPIError``.
    case jsonAPIError
}

/// How a case combines the interceptors' retry actions.
public enum PrioritySpec: Sendable, Hashable {
    /// `Retry.Action.mostPrioritary`, the default.
    case mostPrioritary
    /// A custom closure that always keeps the accumulated action (the first, `.none`, always wins).
    case keepAccumulated
    /// A custom closure that always takes the newest action (the last interceptor wins).
    case takeNewest
}

/// The API error ``ErrorDecodingSpec/jsonAPIError`` decodes.
public struct ConformanceAPIError: Error, Decodable, Sendable, CustomStringConvertible {
    /// The API's error code.
    public var code: Int
    /// The API's message.
    public var message: String
    public var description: String { "APIError(\(code), \(message))" }
}

/// Errors the catalogue's request makers and interceptors produce on purpose.
public enum ConformanceRequestError: Error, Sendable, CustomStringConvertible {
    /// The base request maker failed.
    case makerFailed
    /// A make-request interceptor failed.
    case interceptorFailed
    /// An authenticator could not authenticate.
    case authenticationRefused
    /// A custom retry rule refused.
    case customRuleRefused

    public var description: String {
        switch self {
        case .makerFailed: "makerFailed"
        case .interceptorFailed: "interceptorFailed"
        case .authenticationRefused: "authenticationRefused"
        case .customRuleRefused: "customRuleRefused"
        }
    }
}
