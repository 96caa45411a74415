import Dispatch
import Foundation
import Logging

extension Network.URLSessionNetworkStack {

    /// How a stack connects: whom it trusts, what time certificates are checked against, where callbacks
    /// run and where it logs.
    public struct Configuration: Sendable {

        /// The roots server chains must lead to. The system's trust store by default.
        public var trustRoots: TrustRoots = .system

        /// The time certificates are checked against; `nil` (the default) is the current time.
        ///
        /// Tests set it to check expired and not-yet-valid certificates without waiting for the calendar.
        public var verificationTime: Date?

        /// Where completions run. `nil` (the default) runs them on the stack's transport thread, which saves a
        /// thread hop per fetch: completions must then return quickly and must not block.
        public var callbackQueue: DispatchQueue?

        /// Where the stack logs each request (method, URL, status, timing), retry decisions and TLS outcomes.
        /// Silent by default.
        public var logger: Logger = Logger(label: "Reference.URLSessionNetworkStack", factory: { _ in SwiftLogNoOpLogHandler() })

        /// Whether redirects of GET, HEAD and POST requests are followed (at most 16), as `URLSession` does.
        /// On by default. Other methods (PUT, PATCH, DELETE, …) never follow: their 3xx response is returned, as
        /// ``Network/URLSessionError/http(_:_:_:)``, rather than replaying the method at another location.
        /// A redirect from HTTPS never goes to plain HTTP.
        public var followsRedirects = true

        /// Addresses to use for given host names and ports instead of asking DNS, as libcurl's
        /// `CURLOPT_RESOLVE` entries `"HOST:PORT:ADDRESS"` (e.g. `"api.example.test:8443:127.0.0.1"`).
        ///
        /// The request URL keeps its host name, so TLS sends it as SNI and certificates are checked (and
        /// pinned) against it: tests reach a local server under any name this way. Empty by default.
        public var resolveOverrides: [String] = []

        /// The largest response body accepted, in bytes; a larger one fails the fetch with
        /// `URLError.dataLengthExceedsMaximum` as soon as it is announced or received. `nil` (the default)
        /// accepts any size, as `URLSession` does.
        public var maximumResponseSize: Int?

        /// Creates the default configuration.
        public init() {}
    }
}
