import Foundation

/// How the stack of a case is configured: whom it trusts, its challenge handler, its clock.
package struct StackSetup: Sendable {

    /// Fixture-relative PEM files of the roots to trust (`roots/root-a.pem`); empty: the scenario's manifest
    /// roots for TLS cases, nothing for plain ones.
    package var trustedRoots: [String]?

    /// The challenge handler, or `nil` for standard validation.
    package var handler: HandlerSpec?

    /// The time certificates are checked against; `nil` is now.
    package var verificationTime: Date?

    /// Creates a setup.
    package init(trustedRoots: [String]? = nil, handler: HandlerSpec? = nil, verificationTime: Date? = nil) {
        self.trustedRoots = trustedRoots
        self.handler = handler
        self.verificationTime = verificationTime
    }

    /// The default: standard validation against the scenario's roots.
    package static let standard = StackSetup()
}
