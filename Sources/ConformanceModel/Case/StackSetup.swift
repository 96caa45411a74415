import Foundation
import NetworkCore

/// How the stack of a case is configured: whom it trusts, its challenge handler, its clock.
package struct StackSetup: Sendable {

    /// Fixture-relative PEM files of the roots to trust (`roots/root-a.pem`); empty: the scenario's manifest
    /// roots for TLS cases, nothing for plain ones.
    package var trustedRoots: [String]?

    /// Whether the roots are named public, so a validation profile judges chains that end at them as it judges
    /// the system store's (the Baseline Requirements' rules too); `false`: they are roots a user added.
    package var rootsArePublic: Bool

    /// The challenge handler, or `nil` for standard validation.
    package var handler: HandlerSpec?

    /// The time certificates are checked against; `nil` is now.
    package var verificationTime: Date?

    /// The largest response body the stack accepts (``SubjectFeature/maximumResponseSize``); `nil`: its default.
    package var maximumResponseSize: Int?

    /// The limit on one attempt's whole duration (``SubjectFeature/resourceTimeout``); `nil`: the stack's default.
    package var resourceTimeout: TimeInterval?

    /// The revocation checks a case turns on (``SubjectFeature/revocation``); `nil`: none.
    package var revocation: Revocation?

    /// The deepest verified chain the stack accepts (``SubjectFeature/maximumChainDepth``); `nil`: its default.
    package var maximumChainDepth: Int?

    /// The most redirects in a row the stack follows (``SubjectFeature/redirectLimit``); `nil`: its default.
    package var maximumRedirects: Int?

    /// A ``RevocationPolicy`` as a case writes it: the revocation lists by fixture-relative file.
    package struct Revocation: Sendable {
        /// Fixture-relative CRL files (`revocation/crl-revoked.pem`).
        package var listFiles: [String]
        package var listCoverage: RevocationPolicy.ListCoverage
        package var stapling: RevocationPolicy.Stapling

        package init(
            listFiles: [String] = [], listCoverage: RevocationPolicy.ListCoverage = .whereHeld, stapling: RevocationPolicy.Stapling = .off
        ) {
            self.listFiles = listFiles
            self.listCoverage = listCoverage
            self.stapling = stapling
        }
    }

    /// Creates a setup.
    package init(
        trustedRoots: [String]? = nil, rootsArePublic: Bool = false, handler: HandlerSpec? = nil, verificationTime: Date? = nil,
        maximumResponseSize: Int? = nil, resourceTimeout: TimeInterval? = nil, revocation: Revocation? = nil,
        maximumChainDepth: Int? = nil, maximumRedirects: Int? = nil
    ) {
        self.maximumChainDepth = maximumChainDepth
        self.maximumRedirects = maximumRedirects
        self.revocation = revocation
        self.trustedRoots = trustedRoots
        self.rootsArePublic = rootsArePublic
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
        if let revocation {
            features.insert(.revocation)
            if revocation.stapling != .off { features.insert(.stapledOCSP) }
        }
        if maximumChainDepth != nil { features.insert(.maximumChainDepth) }
        if maximumRedirects != nil { features.insert(.redirectLimit) }
        return features
    }

    /// The default: standard validation against the scenario's roots.
    package static let standard = StackSetup()
}
