import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension ConformanceCase {
    /// The same case over HTTP/2, or `nil` when its behaviour depends on the protocol: a fault that fires before
    /// ALPN (nothing of HTTP/2 happens), or a response whose HTTP/1.1 bytes are the point (a malformation, a body
    /// ended by the close).
    var overHTTP2: ConformanceCase? {
        let responses = server.allResponses
        guard
            !responses.contains(where: { response in
                response.closeDelimited || response.malformation != nil
                    || response.fault.map { $0.trigger.precedesApplicationProtocol } ?? false
            })
        else { return nil }
        // A case with nothing scripted decides its outcome before any request (a failing request maker, a refused
        // port): its twin would never open a connection, let alone speak HTTP/2 (HTTP-17).
        guard !responses.isEmpty, expected.journal.connections != 0 else { return nil }
        // HTTP/2 forbids post-handshake authentication (RFC 9113 §9.2.3): the MockServer refuses the combination.
        guard server.clientCertificates != .postHandshake else { return nil }
        var script = server
        script.tlsScenario = script.tlsScenario ?? "valid-ec256"
        script.httpVersions = .http2Only
        return ConformanceCase(
            id: id + ".h2", title: title + " (HTTP/2)", rules: rules, level: level,
            explanation: explanation + " Over HTTP/2: the server selects h2 in ALPN and every request is a stream.",
            requires: requires.union([.http2]), server: script, stack: stack, resource: resource, action: action, expected: expected)
    }
}
