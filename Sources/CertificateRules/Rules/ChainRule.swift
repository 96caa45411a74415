import NetworkCore

/// One rule of a validation profile beyond path validation: a small type that looks at a verified chain's facts and
/// either passes it or says why not.
protocol ChainRule: Sendable {
    /// The refusal of a verified chain, or `nil`.
    func refusal(of chain: ChainFacts) -> ChainValidationFailure?
}

extension ChainValidationFailure {
    /// OpenSSL's code for an application's own verdict (`X509_V_ERR_APPLICATION_VERIFICATION`), which every stack
    /// reports for a profile rule's refusal.
    static let applicationVerificationCode = 50

    /// A refusal by a profile rule: the code for an application's own verdict, and the rule's name.
    static func refusal(_ kind: Kind, by rule: ValidationRule, depth: Int, _ reason: String) -> ChainValidationFailure {
        ChainValidationFailure(kind: kind, code: applicationVerificationCode, reason: reason, depth: depth, rule: rule)
    }
}
