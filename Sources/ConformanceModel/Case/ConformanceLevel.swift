/// How strongly the spec asks for a behaviour, in RFC 2119's words.
///
/// A failing ``must`` case makes the `conformance` command exit non-zero; a failing ``should`` case is
/// reported but tolerated.
public enum ConformanceLevel: String, Sendable, Codable, Hashable, CaseIterable {
    /// The spec requires it.
    case must = "MUST"
    /// The spec recommends it.
    case should = "SHOULD"
}
