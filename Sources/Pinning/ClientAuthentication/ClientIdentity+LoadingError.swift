extension ClientIdentity {

    /// Why a client identity could not be loaded: a stable ``code`` to compare, and a ``message`` that names the
    /// file and the reason.
    ///
    /// Errors compare equal when their codes are equal: `#expect(throws: ClientIdentity.LoadingError.keyMismatch)`.
    public struct LoadingError: Error, Sendable, Equatable, CustomStringConvertible {

        /// The kind of failure. New codes may be added; switch with a `default`.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private enum Base: String, Sendable {
                case unreadable, noCertificate, malformedCertificate, malformedKey, wrongPassphrase, keyMismatch
                case expired, notYetValid, malformedPKCS12
            }
            private let base: Base
            private init(_ base: Base) { self.base = base }

            /// A file could not be read.
            public static let unreadable = Code(.unreadable)
            /// The input holds no certificate.
            public static let noCertificate = Code(.noCertificate)
            /// A certificate cannot be parsed or encoded.
            public static let malformedCertificate = Code(.malformedCertificate)
            /// The input holds no private key, or one that cannot be parsed.
            public static let malformedKey = Code(.malformedKey)
            /// The key or archive is encrypted, and the passphrase is wrong or missing.
            public static let wrongPassphrase = Code(.wrongPassphrase)
            /// The private key is not the key of the leaf certificate.
            public static let keyMismatch = Code(.keyMismatch)
            /// The leaf certificate expired before the time it was checked at.
            public static let expired = Code(.expired)
            /// The leaf certificate is not valid yet at the time it was checked at.
            public static let notYetValid = Code(.notYetValid)
            /// The PKCS#12 archive cannot be parsed, or holds no certificate and key.
            public static let malformedPKCS12 = Code(.malformedPKCS12)

            /// The code's stable name, safe as a metrics label.
            public var description: String { base.rawValue }
        }

        /// What went wrong, for comparisons.
        public let code: Code
        /// Why, with evidence: the source and OpenSSL's reason when it gave one.
        public let message: String

        /// Creates an error; the loaders create these.
        public init(code: Code, message: String) {
            self.code = code
            self.message = message
        }

        /// The code and the message.
        public var description: String { "ClientIdentity.LoadingError.\(code): \(message)" }

        /// Compares codes only: the message is evidence, not identity.
        public static func == (lhs: LoadingError, rhs: LoadingError) -> Bool { lhs.code == rhs.code }

        /// For comparisons: a key that is not the leaf's.
        public static let keyMismatch = LoadingError(code: .keyMismatch, message: "")
        /// For comparisons: a wrong or missing passphrase.
        public static let wrongPassphrase = LoadingError(code: .wrongPassphrase, message: "")
        /// For comparisons: an expired leaf.
        public static let expired = LoadingError(code: .expired, message: "")
    }
}
