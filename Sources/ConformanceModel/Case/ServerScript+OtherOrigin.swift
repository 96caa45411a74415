import Foundation
import MockServer

extension ServerScript {
    /// What a `Location` field of a scripted response says for the case's own server under its other name: a redirect
    /// to another origin that still reaches the case's server, whose port is known only once it listens.
    ///
    /// A plain server is asked as `127.0.0.1`, so its other name is `http://localhost:PORT`; a TLS server is asked
    /// as `localhost`, so its other name is `https://127.0.0.1:PORT` (the fixture leaves name both).
    package static let otherOriginPlaceholder = "{other-origin}"

    /// The script with ``otherOriginPlaceholder`` in every response's `Location` replaced by the server's other name.
    func resolvingOtherOrigin(port: Int, isTLS: Bool) -> ServerScript {
        let origin = isTLS ? "https://127.0.0.1:\(port)" : "http://localhost:\(port)"
        func resolved(_ response: MockResponse) -> MockResponse {
            var response = response
            response.headers = response.headers.map { field in
                guard field.name.lowercased() == "location" else { return field }
                return (field.name, field.value.replacingOccurrences(of: Self.otherOriginPlaceholder, with: origin))
            }
            return response
        }
        var script = self
        script.responses = responses.map(resolved)
        script.repeating = repeating.map(resolved)
        script.routes = routes.mapValues(resolved)
        return script
    }
}
