internal import CPSL

/// The Public Suffix List, through libpsl: the newer of the list built into libpsl and the system's copy
/// (Debian's `publicsuffix` package).
enum PublicSuffixList {

    // libpsl's context is immutable once loaded and safe to share between threads; it lives as long as
    // the process, so it is never freed.
    nonisolated(unsafe) private static let context: OpaquePointer? = psl_latest(nil)

    /// Whether a name (lowercase) is a public suffix registered by ICANN (`co.uk`, `com`, …), or an unknown
    /// top-level label, which the list's implicit `*` rule makes one too.
    ///
    /// - Returns: `nil` when no list could be loaded: the caller must then fail closed.
    static func isPublicSuffix(_ name: String) -> Bool? {
        guard let context else { return nil }
        return psl_is_public_suffix2(context, name, Int32(PSL_TYPE_ICANN)) != 0
    }
}
