/// The model `fetchAndDecode` cases decode: `{"name": "…"}`.
struct DecodedName: Decodable, Sendable {
    var name: String
}
