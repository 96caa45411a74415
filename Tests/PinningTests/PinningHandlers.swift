import Testing

/// The pinning handlers on their own: no TLS library, no server, no stack. That these tests link only `Pinning`
/// is what proves a stack on another HTTP library can use the handlers.
@Suite("Pinning handlers on their own")
struct PinningHandlers {}
