import Foundation

/// The `URLSessionResource` of a case, as data: the request, the request maker, the interceptor chain,
/// error decoding, the priority closure and the empty-body escape hatch.
package struct ResourceSpec: Sendable {

    /// Where the request goes.
    package enum Target: Sendable, Hashable {
        /// This path on the case's server.
        case server(String)
        /// A loopback port nothing listens on (connection refused).
        case refusedPort
        /// A URL whose scheme HTTP stacks do not speak (`ftp://`).
        case unsupportedScheme
        /// The case's server, under this scheme instead of `http` or `https` (`gopher://127.0.0.1:port/`).
        case otherScheme(String)
    }

    /// Where the request goes.
    package var target: Target = .server("/")
    /// The method.
    package var method: String = "GET"
    /// Header fields.
    package var headers: [String: String] = [:]
    /// The body.
    package var body: Data?
    /// The request's timeout interval, in seconds.
    package var timeout: TimeInterval = 5
    /// How the base request is made.
    package var requestMaking: RequestMakingSpec = .immediate
    /// The interceptor chain, in order.
    package var interceptors: [InterceptorSpec] = []
    /// How API errors are decoded from non-2xx responses.
    package var errorDecoding: ErrorDecodingSpec = .none
    /// How the interceptors' actions are combined.
    package var priority: PrioritySpec = .mostPrioritary
    /// Further 2xx codes that may come without a body.
    package var emptyBodyStatusCodes: Set<Int> = []

    /// Creates a spec; change fields with ``with(_:)``.
    package init() {}

    /// A copy changed by `change`.
    package func with(_ change: (inout ResourceSpec) -> Void) -> ResourceSpec {
        var copy = self
        change(&copy)
        return copy
    }

    /// A GET of `/`.
    package static let get = ResourceSpec()

    /// A GET of `/` with these interceptors.
    package static func intercepted(_ interceptors: InterceptorSpec...) -> ResourceSpec {
        ResourceSpec().with { $0.interceptors = interceptors }
    }
}

/// How a case's base request is made.
package enum RequestMakingSpec: Sendable, Hashable {
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
package enum ErrorDecodingSpec: Sendable, Hashable {
    /// No decoding (`ErrorDecoding.dummy`).
    case none
    /// JSON `{"code": Int, "message": String}` into ``ConformanceAPIError``.
    case jsonAPIError
}

/// How a case combines the interceptors' retry actions.
package enum PrioritySpec: Sendable, Hashable {
    /// `Retry.Action.mostPrioritary`, the default.
    case mostPrioritary
    /// A custom closure that always keeps the accumulated action (the first, `.none`, always wins).
    case keepAccumulated
    /// A custom closure that always takes the newest action (the last interceptor wins).
    case takeNewest
}

/// The API error ``ErrorDecodingSpec/jsonAPIError`` decodes.
package struct ConformanceAPIError: Error, Decodable, Sendable, CustomStringConvertible {
    /// The API's error code.
    package var code: Int
    /// The API's message.
    package var message: String
    package var description: String { "APIError(\(code), \(message))" }
}

/// Errors the catalogue's request makers and interceptors produce on purpose.
package enum ConformanceRequestError: Error, Sendable, CustomStringConvertible {
    /// The base request maker failed.
    case makerFailed
    /// A make-request interceptor failed.
    case interceptorFailed
    /// An authenticator could not authenticate.
    case authenticationRefused
    /// A custom retry rule refused.
    case customRuleRefused

    package var description: String {
        switch self {
        case .makerFailed: "makerFailed"
        case .interceptorFailed: "interceptorFailed"
        case .authenticationRefused: "authenticationRefused"
        case .customRuleRefused: "customRuleRefused"
        }
    }
}
