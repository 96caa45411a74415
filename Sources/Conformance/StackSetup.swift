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

    /// The largest response body the stack accepts (``SubjectFeature/maximumResponseSize``); `nil`: its default.
    package var maximumResponseSize: Int?

    /// The limit on one attempt's whole duration (``SubjectFeature/resourceTimeout``); `nil`: the stack's default.
    package var resourceTimeout: TimeInterval?

    /// Creates a setup.
    package init(
        trustedRoots: [String]? = nil, handler: HandlerSpec? = nil, verificationTime: Date? = nil,
        maximumResponseSize: Int? = nil, resourceTimeout: TimeInterval? = nil
    ) {
        self.trustedRoots = trustedRoots
        self.handler = handler
        self.verificationTime = verificationTime
        self.maximumResponseSize = maximumResponseSize
        self.resourceTimeout = resourceTimeout
    }

    /// The features this setup needs of a subject beyond the basics.
    var requiredFeatures: Set<SubjectFeature> {
        var features: Set<SubjectFeature> = []
        if maximumResponseSize != nil { features.insert(.maximumResponseSize) }
        if resourceTimeout != nil { features.insert(.resourceTimeout) }
        return features
    }

    /// The default: standard validation against the scenario's roots.
    package static let standard = StackSetup()
}
