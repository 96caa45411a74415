import MockServer

/// The MockServer a case runs against: plain HTTP or a fixture scenario over TLS, and what it answers.
package struct ServerScript: Sendable {

    /// The fixture scenario whose chain the server serves over TLS (`Fixtures/certs/<name>`), or `nil` for
    /// plain HTTP.
    package var tlsScenario: String?

    /// The host name the client connects to (`localhost` by default; a TLS scenario's manifest host for
    /// trust cases). Names other than `localhost` and IP literals need ``SubjectFeature/resolveOverrides``.
    package var host: String

    /// Responses in order, one per request (or per connection for faults that fire before a request).
    /// When the queue runs out, the server answers 404 (or ``repeating``).
    package var responses: [MockResponse]

    /// When set, answers every request in place of the queue (for limitless retries).
    package var repeating: MockResponse?

    /// Whether the server lets clients resume TLS sessions (session IDs and tickets).
    package var sessionResumption: Bool

    /// How the server resumes sessions when ``sessionResumption`` is on (tickets per connection, their lifetime,
    /// every offer turned down).
    package var resumption = MockServer.TLS.SessionResumption()

    /// The highest TLS version the server speaks; `nil`: TLS 1.3. TLS 1.2 resumes sessions by ID and by
    /// ticket, TLS 1.3 by ticket (PSK) only.
    package var tlsMaximumVersion: MockServer.TLS.Version?

    /// Responses by request path, answered every time that path is asked for, before the queue.
    package var routes: [String: MockResponse]

    /// The HTTP versions the server offers in ALPN (TLS only): HTTP/1.1 only unless a case is about HTTP/2.
    package var httpVersions: MockServer.TLS.HTTPVersions = .http1Only

    /// Whether the server asks for a client certificate (TLS only), verifying one against root A of the fixtures.
    package var clientCertificates: ClientCertificateDemand?

    /// A fixture-relative DER OCSP response the server staples when the client asks for one; `nil`: none.
    package var stapledOCSPResponse: String?

    /// How a server asks for a client certificate.
    package enum ClientCertificateDemand: String, Sendable {
        /// Asks, and goes on without one.
        case optional
        /// Asks, and refuses a client that presents none.
        case required
        /// Asks after the handshake, once the request head was read (TLS 1.3 only, HTTP/1.1 only), and refuses a
        /// client that presents none.
        case postHandshake
    }

    /// Every response the script can answer with: the queue, the repeating one and the routes.
    package var allResponses: [MockResponse] {
        responses + (repeating.map { [$0] } ?? []) + routes.keys.sorted().compactMap { routes[$0] }
    }

    /// Creates a script.
    package init(
        tlsScenario: String? = nil, host: String = "localhost", responses: [MockResponse] = [],
        repeating: MockResponse? = nil, sessionResumption: Bool = false, tlsMaximumVersion: MockServer.TLS.Version? = nil,
        routes: [String: MockResponse] = [:]
    ) {
        self.tlsScenario = tlsScenario
        self.host = host
        self.responses = responses
        self.repeating = repeating
        self.sessionResumption = sessionResumption
        self.tlsMaximumVersion = tlsMaximumVersion
        self.routes = routes
    }

    /// The host as a client canonicalises it: lower case, without one trailing dot.
    var canonicalHost: String {
        let lower = host.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// A plain-HTTP server answering these responses in order.
    package static func plain(_ responses: MockResponse...) -> ServerScript {
        ServerScript(responses: responses)
    }

    /// A plain-HTTP server answering these responses in order.
    package static func plain(_ responses: [MockResponse]) -> ServerScript {
        ServerScript(responses: responses)
    }

    /// A TLS server serving a fixture scenario and answering these responses in order.
    package static func tls(_ scenario: String = "valid-ec256", host: String = "localhost", _ responses: MockResponse...) -> ServerScript {
        ServerScript(tlsScenario: scenario, host: host, responses: responses)
    }
}
