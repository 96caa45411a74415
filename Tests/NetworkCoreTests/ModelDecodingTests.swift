import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

private struct Model: Decodable, Equatable { var foo: String }
private struct APIError: Error, Decodable { var message: String }

@Suite("Decoding witnesses")
struct ModelDecodingTests {

    let response = HTTPURLResponse(url: URL(string: "https://example.test")!, statusCode: 200, httpVersion: nil, headerFields: nil)!

    @Test("json model decoding returns the model")
    func modelDecodes() throws {
        let decoding = ModelDecoding<Model, Data, URLResponse>.json()
        #expect(try decoding.decode(Data(#"{"foo":"bar"}"#.utf8), response) == Model(foo: "bar"))
    }

    @Test("json model decoding throws the decoder's error")
    func modelDecodingThrows() {
        let decoding = ModelDecoding<Model, Data, URLResponse>.json()
        #expect(throws: DecodingError.self) { try decoding.decode(Data("{}".utf8), response) }
    }

    @Test("json error decoding decodes, and swallows absent or undecodable payloads")
    func errorDecoding() {
        let decoding = Network.ErrorDecoding<Data, URLResponse>.json(APIError.self)
        #expect((decoding.decode(Data(#"{"message":"nope"}"#.utf8), response) as? APIError)?.message == "nope")
        #expect(decoding.decode(nil, response) == nil)
        #expect(decoding.decode(Data("[]".utf8), response) == nil)
        #expect(Network.ErrorDecoding<Data, URLResponse>.dummy.decode(Data(), response) == nil)
    }

    @Test("Network.Value.mapValue keeps the response")
    func mapValueKeepsResponse() throws {
        let value = Network.Value(value: 2, response: "r").mapValue { value, response in "\(value)\(response)" }
        #expect(value.value == "2r")
        #expect(value.response == "r")
    }
}
