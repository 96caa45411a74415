extension ServerTrustEvaluator {

    /// What is wrong with a pinning policy's domain name.
    public enum DomainNameProblem: String, Sendable, Hashable, CustomStringConvertible {
        /// The name is empty.
        case empty
        /// The name contains whitespace or control characters.
        case whitespace
        /// The name contains a URL scheme (`https://`): give the host name alone.
        case scheme
        /// The name contains a port (`:443`): policies apply to every port of a host.
        case port
        /// The name contains a path, query, fragment or user part: give the host name alone.
        case path
        /// The name contains `*`: use `includeSubdomains` instead of wildcards.
        case wildcard
        /// The name has an empty label (`a..b`, a leading dot, or more than one trailing dot).
        case emptyLabel
        /// A label has a character other than ASCII letters, digits, `-` and `_`, or starts or ends with `-`
        /// (internationalized names must be given in their `xn--` form).
        case invalidCharacter
        /// The name is longer than 253 characters, or a label longer than 63.
        case tooLong
        /// The name is a single label such as `com` (only `localhost` is accepted).
        case topLevelDomain
        /// The name is an IP address, which has no subdomains, and `includeSubdomains` is set.
        case ipAddressWithSubdomains

        public var description: String {
            switch self {
            case .empty: return "it is empty"
            case .whitespace: return "it contains whitespace"
            case .scheme: return "it contains a URL scheme"
            case .port: return "it contains a port"
            case .path: return "it contains a path, query, fragment or user"
            case .wildcard: return "it contains a wildcard (use includeSubdomains)"
            case .emptyLabel: return "it has an empty label"
            case .invalidCharacter: return "it has a character not allowed in a host name"
            case .tooLong: return "it is too long"
            case .topLevelDomain: return "it is a top-level domain"
            case .ipAddressWithSubdomains: return "it is an IP address, which has no subdomains"
            }
        }
    }
}
