import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

/// The usage examples of Alicerce's network documentation, run against a local HTTPS server.
@Suite("The usage examples of the network documentation", .serialized, .scaledTimeLimit(minutes: 1), .blocking)
final class NetworkExamplesTests {

    let server: MockServer
    let network: Network.URLSessionNetworkStack

    init() throws {
        let server = try MockServer(tls: .init(identity: Fixtures.identity("valid-ec256")))
        self.server = server
        GitHubServer.baseURL.withLock { $0 = URL(string: "https://localhost:\(server.port)")! }
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        network = Network.URLSessionNetworkStack(
            configuration: configuration,
            retryQueue: DispatchQueue(label: "com.alicerce.network.retry-queue"))
    }

    @Test("making a request returns the raw payload")
    func makingARequest() throws {
        server.enqueue(MockResponse(status: 200, body: Data(#"{"name":"Alicerce"}"#.utf8)))
        let recorder = Recorder<Network.URLSessionNetworkStack.FetchResult>()
        network.fetch(resource: .github(endpoint: .repo(owner: "Mindera", name: "Alicerce"))) { result in
            switch result {
            case .success:
                recorder.record(result)
            case .failure(.http(_, _ as GitHubAPIError, _)):
                recorder.record(result)
            case .failure:
                recorder.record(result)
            }
        }
        #expect(recorder.next()?.success?.value == Data(#"{"name":"Alicerce"}"#.utf8))
        let request = try server.takeRequest()
        #expect(request.target == "/repos/Mindera/Alicerce")
        #expect(request.header("Accept") == "application/vnd.github.v3+json")
    }

    @Test("an API error is decoded into the error type")
    func apiError() throws {
        server.enqueue(MockResponse(status: 404, body: Data(#"{"message":"Not Found"}"#.utf8)))
        let recorder = Recorder<Network.URLSessionNetworkStack.FetchResult>()
        network.fetch(resource: .github(endpoint: .repo(owner: "Mindera", name: "nope"))) { recorder.record($0) }
        guard case .http(.clientError(404), GitHubAPIError.generic(let message)?, _)? = recorder.next()?.failure else {
            Issue.record("expected the decoded API error"); return
        }
        #expect(message == "Not Found")
    }

    @Test("fetchAndDecode decodes the model")
    func decodingAModel() throws {
        server.enqueue(
            MockResponse(status: 200, body: Data(#"{"name":"Alicerce","full_name":"Mindera/Alicerce","stargazers_count":42}"#.utf8)))
        let recorder = Recorder<Result<String, FetchAndDecodeError>>()
        network.fetchAndDecode(
            resource: .github(endpoint: .repo(owner: "Mindera", name: "Alicerce")),
            decoding: .json(GitHubRepo.self)
        ) { result in
            switch result {
            case .success(let value):
                recorder.record(.success("\(value.value.fullName) \(value.value.stars)"))
            case .failure(let error):
                recorder.record(.failure(error))
            }
        }
        #expect(recorder.next()?.success == "Mindera/Alicerce 42")
    }

    @Test("exponential backoff until maxDelay retries with 0.1 s, 0.2 s and 0.3 s, then gives up")
    func retryOnFailure() throws {
        for _ in 0..<4 { server.enqueue(MockResponse(status: 503)) }
        let retryInterceptors: [URLSessionResourceInterceptor] = [
            Network.URLSessionRetryPolicy.backoff(
                .exponential(
                    baseDelay: 0.1,
                    scale: { delay, retry in delay * Double(retry) },
                    until: .maxDelay(0.4)
                )
            )
        ]
        let recorder = Recorder<Network.URLSessionNetworkStack.FetchResult>()
        network.fetch(resource: .github(endpoint: .repo(owner: "Mindera", name: "Alicerce"), interceptors: retryInterceptors)) {
            recorder.record($0)
        }
        guard case .retry(.delay(0.4), let state)? = recorder.next()?.failure else { Issue.record("expected retry(.delay(0.4))"); return }
        #expect(state.errors.count == 4)
        #expect(abs(state.totalDelay - 0.6) < 1e-9)
    }

    @Test("the OAuth2 authenticator adds its token, refreshes it after a 401 and retries")
    func authenticateRequests() throws {
        server.enqueue(MockResponse(status: 401, body: Data(#"{"message":"Bad credentials"}"#.utf8)))
        server.enqueue(MockResponse(status: 200, body: Data(#"[{"login":"octocat"}]"#.utf8)))
        let authenticator = OAuth2Client(token: "stale", refreshedTokens: ["fresh"])
        let recorder = Recorder<Result<[String], FetchAndDecodeError>>()
        network.fetchAndDecode(
            resource: .github(
                endpoint: .repoCollaborators(owner: "Mindera", name: "Alicerce", affiliation: .all),
                interceptors: [authenticator]
            ),
            decoding: .json([GitHubRepoCollaborator].self)
        ) { result in
            recorder.record(result.map { $0.value.map(\.login) })
        }
        #expect(recorder.next()?.success == ["octocat"])
        #expect(try server.takeRequest().header("Authorization") == "token stale")
        let retried = try server.takeRequest()
        #expect(retried.header("Authorization") == "token fresh")
        #expect(retried.target == "/repos/Mindera/Alicerce/collaborators?affiliation=all")
    }

    @Test("the OAuth2 authenticator refuses to retry when no fresh token is left")
    func authenticationRefused() throws {
        server.enqueue(MockResponse(status: 401))
        let authenticator = OAuth2Client(token: "stale", refreshedTokens: [])
        let recorder = Recorder<Network.URLSessionNetworkStack.FetchResult>()
        network.fetch(resource: .github(endpoint: .repoCollaborators(owner: "Mindera", name: "Alicerce"), interceptors: [authenticator])) {
            recorder.record($0)
        }
        guard case .retry(.custom(OAuth2ClientError.reauthenticationFailed), let state)? = recorder.next()?.failure else {
            Issue.record("expected retry(.custom(reauthenticationFailed))"); return
        }
        #expect(state.errors.count == 1)
    }
}
