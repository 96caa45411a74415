/// The failure of a fetch-and-decode: which of the two steps failed, and why.
public enum FetchAndDecodeError: Error {
    /// The fetch failed; for `Network/URLSessionNetworkStack` the error is a ``Network/URLSessionError``.
    case fetch(Error)
    /// The fetch succeeded but the model could not be decoded.
    case decode(Error)
}
