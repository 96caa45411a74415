// The usage examples of Alicerce's network documentation, as written there except where Linux or Swift 6 force a change:
// - the endpoint's base URL points at the local MockServer instead of api.github.com;
// - `.allg` (a typo in that documentation) is `.all`, and the `repoCollaborators` path pattern binds all three values;
// - the stack is created with a configuration instead of being given a URLSession;
// - OAuth2Client is a final, Sendable class whose token API takes an escaping, Sendable completion.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import Synchronization

/// Where the examples' "GitHub" lives during a test.
enum GitHubServer {
    static let baseURL = Mutex(URL(string: "https://localhost")!)
}

enum GitHubEndpoint: HTTPResourceEndpoint {

    case repo(owner: String, name: String)
    case repoCollaborators(owner: String, name: String, affiliation: RepoAffiliation = .all)

    enum RepoAffiliation: String {
        case outside
        case direct
        case all
    }

    var method: HTTP.Method {
        switch self {
        case .repo, .repoCollaborators:
            return .GET
        }
    }

    var baseURL: URL { GitHubServer.baseURL.withLock { $0 } }

    var path: String? {
        switch self {
        case .repo(let owner, let name):
            return "/repos/\(owner)/\(name)"
        case .repoCollaborators(let owner, let name, _):
            return "/repos/\(owner)/\(name)/collaborators"
        }
    }

    var queryItems: [URLQueryItem]? {
        switch self {
        case .repo:
            return nil
        case .repoCollaborators(_, _, let affiliation):
            return [URLQueryItem(name: "affiliation", value: affiliation.rawValue)]
        }
    }

    var headers: HTTP.Headers? { ["Accept": "application/vnd.github.v3+json"] }
}

enum GitHubAPIError: Error, Decodable {

    case generic(message: String)

    init(from decoder: Decoder) throws {

        let container = try decoder.container(keyedBy: CodingKeys.self)
        let message = try container.decode(String.self, forKey: .message)

        self = .generic(message: message)
    }

    private enum CodingKeys: String, CodingKey {
        case message
    }
}

extension Network.URLSessionResource {

    static func github(
        endpoint: GitHubEndpoint,
        interceptors: [URLSessionResourceInterceptor] = [],
        retryActionPriority: @escaping Retry.Action.CompareClosure = Retry.Action.mostPrioritary
    ) -> Self {

        .init(
            baseRequestMaking: .endpoint(endpoint),
            errorDecoding: .json(GitHubAPIError.self),
            interceptors: interceptors
        )
    }
}

struct GitHubRepo: Decodable {
    var name: String
    var fullName: String
    var stars: Int

    private enum CodingKeys: String, CodingKey {
        case name
        case fullName = "full_name"
        case stars = "stargazers_count"
    }
}

struct GitHubRepoCollaborator: Decodable {
    var login: String
}

enum OAuth2ClientError: Error {
    case noToken
    case reauthenticationFailed
}

/// An OAuth2 client holding a current token, refreshed when the server says it is stale.
final class OAuth2Client: Sendable {

    typealias OAuth2Token = String

    private let tokens: Mutex<(current: OAuth2Token, next: [OAuth2Token])>

    init(token: OAuth2Token, refreshedTokens: [OAuth2Token]) {
        tokens = Mutex((token, refreshedTokens))
    }

    var currentToken: OAuth2Token { tokens.withLock { $0.current } }

    // example async API to fetch the current OAuth2 token, or wait for one to be fetched
    func token(for request: URLRequest, completion: @escaping @Sendable (Result<OAuth2Token, OAuth2ClientError>) -> Void) -> Cancelable {
        let token = currentToken
        DispatchQueue.global().async { completion(.success(token)) }
        return DummyCancelable()
    }

    /// Moves to the next token; `false` when there is none left.
    func refresh(replacing stale: OAuth2Token) -> Bool {
        tokens.withLock { tokens in
            guard tokens.current == stale else { return true }  // already refreshed by another request
            guard !tokens.next.isEmpty else { return false }
            tokens.current = tokens.next.removeFirst()
            return true
        }
    }
}

extension OAuth2Client: URLRequestAuthenticator, URLSessionResourceInterceptor {

    @discardableResult
    func authenticateRequest(_ request: URLRequest, handler: @escaping AuthenticationHandler) -> Cancelable {

        let cancelableBag = CancelableBag()

        // the client is responsible for providing the current token (if any), which it then injects on the request
        // ideally this should be made asynchronously so it doesn't block the network stack
        cancelableBag += token(for: request) { result in

            switch result {
            case .failure(let error):
                // something went wrong, and the request can't be authenticated
                cancelableBag += handler(.failure(error))

            case .success(let token):
                // the request can be authenticated with the given token
                var request = request

                var httpHeaders = request.allHTTPHeaderFields ?? [:]
                httpHeaders["Authorization"] = "token \(token)"
                request.allHTTPHeaderFields = httpHeaders

                cancelableBag += handler(.success(request))
            }
        }

        return cancelableBag
    }

    func evaluateFailedRequest(
        _ request: URLRequest,
        data: Data?,
        response: URLResponse?,
        error: Error,
        retryState: Retry.State
    ) -> Retry.Action {

        // extract the token used by the failed request (if any)
        let rawToken = request.allHTTPHeaderFields?["Authorization"]
        let oAuthToken = rawToken?.split(separator: " ").last.flatMap(String.init)

        // a 401 means the token used is stale: refresh it and retry, or give up when no token is left
        guard case Network.URLSessionError.http(.clientError(401), _, _) = error, let oAuthToken else { return .none }
        return refresh(replacing: oAuthToken) ? .retry : .noRetry(.custom(OAuth2ClientError.reauthenticationFailed))
    }
}
