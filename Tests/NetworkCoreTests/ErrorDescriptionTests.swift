import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

private struct Broken: Error, CustomStringConvertible {
    var description: String { "the request maker is broken" }
}

@Suite("Errors say what failed in one line, as print and localizedDescription show them")
struct ErrorDescriptionTests {

    let url = URL(string: "https://api.example.test/v1/items")!
    var response: HTTPURLResponse { HTTPURLResponse(url: url, statusCode: 404, httpVersion: nil, headerFields: nil)! }

    static let leaf = ServerCertificate(der: Data(), spkiSHA256: "LEAFPIN=", subject: "CN=api.example.test", issuer: "CN=CA")
    static let root = ServerCertificate(der: Data(), spkiSHA256: "ROOTPIN=", subject: "CN=Root", issuer: "CN=Root")

    let refusal = ServerTrustFailure(
        reason: .noPinMatched, host: "api.example.test", policy: "api.example.test (1 pin)", configuredPins: ["CONFIGURED="],
        seenCertificates: [Self.leaf, Self.root], detail: "no certificate of the verified chain has a configured pin; port 443")

    /// Both ways a person sees an error: `print(error)` and `localizedDescription`.
    private func shown(_ error: some Error) -> [String] { [String(describing: error), error.localizedDescription] }

    @Test("a pin refusal names the host, the policy, the pins configured and the pins seen, once")
    func pinRefusal() {
        let error = Network.URLSessionError.url(
            URLError(
                .serverCertificateUntrusted,
                failure: TransportFailure(
                    library: "libcurl", code: 60, message: "SSL peer certificate was not OK", serverTrustFailure: refusal), url: url))
        let expected =
            "serverCertificateUntrusted (-1202) for https://api.example.test/v1/items: server trust refused for host api.example.test: noPinMatched; policy: api.example.test (1 pin); configured pins: [CONFIGURED=]; chain pins: [#0 LEAFPIN= (CN=api.example.test), #1 ROOTPIN= (CN=Root)]; no certificate of the verified chain has a configured pin; port 443"
        for text in shown(error) { #expect(text == expected) }
    }

    @Test("a chain refusal names the certificate that failed")
    func chainRefusal() {
        let expired = ChainValidationFailure(kind: .expired, code: 10, reason: "certificate has expired", depth: 0)
        let failure = ServerTrustFailure(
            reason: .chainNotTrusted(expired), host: "api.example.test", seenCertificates: [Self.leaf, Self.root])
        #expect(
            failure.description
                == "server trust refused for host api.example.test: chainNotTrusted(expired) (expired at depth 0: certificate has expired (verify error 10)); failed certificate: the leaf (CN=api.example.test); chain pins: [#0 LEAFPIN= (CN=api.example.test), #1 ROOTPIN= (CN=Root)]"
        )
        #expect(failure.localizedDescription == failure.description)
        #expect(
            expired.localizedDescription == "certificate chain not trusted: expired at depth 0: certificate has expired (verify error 10)")
    }

    @Test("standard validation's refusal without a handler says the chain is not trusted")
    func standardRefusal() {
        let failure = ChainValidationFailure(
            kind: .untrustedRoot, code: 19, reason: "self-signed certificate in certificate chain", depth: 2)
        let error = Network.URLSessionError.url(
            URLError(
                .serverCertificateUntrusted,
                failure: TransportFailure(library: "OpenSSL", code: 19, message: "verify failed", chainValidationFailure: failure)))
        for text in shown(error) {
            #expect(
                text
                    == "serverCertificateUntrusted (-1202): certificate chain not trusted: untrusted-root at depth 2: self-signed certificate in certificate chain (verify error 19)"
            )
        }
    }

    @Test("a transport failure gives the code by name and number and the library's message")
    func transportFailure() {
        let error = Network.URLSessionError.url(
            URLError(
                .timedOut, failure: TransportFailure(library: "libcurl", code: 28, message: "Operation timed out after 1000 milliseconds"),
                url: url))
        for text in shown(error) {
            #expect(
                text
                    == "timedOut (-1001) for https://api.example.test/v1/items: libcurl error 28: Operation timed out after 1000 milliseconds"
            )
        }
    }

    @Test("a status failure gives the status, the URL and the API error")
    func httpFailure() {
        let error = Network.URLSessionError.http(.clientError(404), Broken(), response)
        for text in shown(error) {
            #expect(
                text
                    == "HTTP 404 from https://api.example.test/v1/items: the status is not a success; API error: the request maker is broken"
            )
        }
        #expect(
            Network.URLSessionError.noData(.success(200), response).description
                == "HTTP 200 from https://api.example.test/v1/items came with no body")
    }

    @Test("the other kinds: no request, no response, cancelled")
    func otherKinds() {
        #expect(Network.URLSessionError.noRequest(Broken()).description == "no request was made: the request maker is broken")
        #expect(Network.URLSessionError.badResponse(nil).description == "no HTTP response")
        #expect(Network.URLSessionError.cancelled.localizedDescription == "the fetch was cancelled")
    }

    @Test("a retry that gave up says how many attempts, which limit, and the last error")
    func retryGaveUp() {
        let last = Network.URLSessionError.http(.serverError(503), nil, response)
        let error = Network.URLSessionError.retry(.retries(2), Retry.State(errors: [last, last, last], totalDelay: 0.3))
        #expect(
            error.description
                == "gave up after 3 attempts (the policy allows 2 retries); last error: HTTP 503 from https://api.example.test/v1/items: the status is not a success"
        )
    }

    @Test("a certificate subject with control characters and a terminal escape is shown escaped")
    func hostileSubjectEscaped() {
        let hostile = ServerCertificate(der: Data(), spkiSHA256: "PIN=", subject: "CN=evil\u{1B}[31m\nsecond line\u{7}", issuer: "CN=CA")
        let failure = ServerTrustFailure(reason: .noPinMatched, host: "h.test", seenCertificates: [hostile])
        #expect(
            failure.description
                == "server trust refused for host h.test: noPinMatched; chain pins: [#0 PIN= (CN=evil\\u{1b}[31m\\u{a}second line\\u{7})]")
        #expect(!failure.description.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("a bidirectional override, a zero-width space and a backslash cannot disguise the line")
    func bidiAndBackslashEscaped() {
        let subject = "CN=a\u{202E}gnp.exe\u{200B} \\u{1b}"
        #expect(DisplayText.line(subject) == "CN=a\\u{202e}gnp.exe\\u{200b} \\\\u{1b}")
    }

    @Test("a 100 KiB field is cut to a few hundred characters, saying how much was left out")
    func longFieldBounded() {
        let message = String(repeating: "a", count: 100 * 1024)
        let text = TransportFailure(library: "libcurl", code: 8, message: message).description
        #expect(text == "libcurl error 8: " + String(repeating: "a", count: 300) + "… (102100 more characters)")
    }
}
