import Foundation
import Conformance
import Reference

/// The reference stack (libcurl + OpenSSL), the subject the suite runs by default.
public struct ReferenceSubject: ConformanceSubject {

    /// Creates the subject.
    public init() {}

    public var name: String { "reference" }

    public var summary: String {
        let versions = Network.URLSessionNetworkStack.transportVersions
        return
            "Network.URLSessionNetworkStack (Reference module) on \(versions.openSSL), libcurl \(versions.libcurl.split(separator: " ").first.map(String.init) ?? "")"
    }

    public var libraryVersions: [String: String] {
        let versions = Network.URLSessionNetworkStack.transportVersions
        return ["OpenSSL": versions.openSSL, "libcurl": versions.libcurl]
    }

    public func makeStack(for environment: StackEnvironment) throws -> Network.URLSessionNetworkStack {
        var configuration = Network.URLSessionNetworkStack.Configuration()
        // Only the case's roots: a case about an untrusted root must not pass thanks to the system store.
        configuration.trustRoots =
            environment.trustedRootFiles.isEmpty
            ? .none : try .only(pemFiles: environment.trustedRootFiles, public: environment.trustedRootsArePublic)
        configuration.verificationTime = environment.verificationTime
        configuration.resolveOverrides = environment.resolveOverrides
        if let limit = environment.maximumResponseSize { configuration.maximumResponseSize = limit }
        if let limit = environment.resourceTimeout { configuration.timeoutIntervalForResource = limit }
        configuration.revocation = environment.revocation
        configuration.maximumChainDepth = environment.maximumChainDepth
        if let limit = environment.maximumRedirects { configuration.redirects = .follow(maximum: limit) }
        return Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: environment.authenticationChallengeHandler,
            retryQueue: environment.retryQueue)
    }

    public func tearDown(_ stack: Network.URLSessionNetworkStack) {
        stack.finishFetchesAndInvalidateSession()
    }
}
