import Dispatch
import NetworkCore
import Pinning

extension StackEnvironment {
    /// The environment a case asks of the subject: its handler, the roots to trust (the case's own, or its TLS
    /// scenario's), its clock and limits, and, when a host name other than `localhost` or an IP literal must reach
    /// the loopback server, an override for each spelling of it.
    init(
        for testCase: ConformanceCase, server: CaseServer, handler: (any AuthenticationChallengeHandler)?, fixtures: FixtureCatalogue
    ) throws(CaseStop) {
        let script = testCase.server
        let otherHosts = testCase.action.otherHosts
        let needsResolve =
            server.isTLS
            && ([script.host] + otherHosts).contains { $0 != "localhost" && $0.first?.isNumber != true && !$0.contains(":") }
        // The URL's spelling of the host and, when it differs, the canonical one (lower case, no trailing dot):
        // a stack may look the override up by either.
        let overrides = Set([script.host, script.canonicalHost] + otherHosts).sorted().map {
            HostOverride(host: $0, port: server.port, address: "127.0.0.1")
        }
        self.init(
            authenticationChallengeHandler: handler,
            trustedRootFiles: (testCase.stack.trustedRoots ?? server.scenario?.trust ?? []).map(fixtures.path),
            trustedRootsArePublic: testCase.stack.rootsArePublic,
            verificationTime: testCase.stack.verificationTime, resolveOverrides: needsResolve ? overrides : [],
            retryQueue: DispatchQueue(label: "conformance.retry.\(testCase.id)"),
            maximumResponseSize: testCase.stack.maximumResponseSize, resourceTimeout: testCase.stack.resourceTimeout,
            revocation: try Self.revocation(testCase.stack.revocation, fixtures), maximumChainDepth: testCase.stack.maximumChainDepth,
            maximumRedirects: testCase.stack.maximumRedirects)
    }

    private static func revocation(_ setup: StackSetup.Revocation?, _ fixtures: FixtureCatalogue) throws(CaseStop) -> RevocationPolicy {
        guard let setup else { return .off }
        do {
            let lists = try setup.listFiles.flatMap { file throws(CertificateRevocationList.ReadError) in
                try CertificateRevocationList.lists(file: fixtures.path(file))
            }
            return RevocationPolicy(revocationLists: lists, listCoverage: setup.listCoverage, stapling: setup.stapling)
        } catch {
            throw .harness("\(error)")
        }
    }
}
