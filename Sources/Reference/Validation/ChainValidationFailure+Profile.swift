internal import COpenSSL

extension ChainValidationFailure {

    /// The failure OpenSSL recorded in a verification context, with the errors only strict X.509
    /// verification reports given their own kind and rule.
    init(openSSLStore store: OpaquePointer) {
        let failure = ChainValidationFailure(store: store)
        guard failure.kind == .other, let kind = Kind.strictProfile(code: Int32(failure.code)) else {
            self = failure
            return
        }
        self.init(kind: kind, code: failure.code, reason: failure.reason, depth: failure.depth, rule: .x509Strict)
    }
}
