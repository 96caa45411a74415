@testable import MockServer
import TestTraits
import Testing

@Suite("The chunked request-body decoder", .scaledTimeLimit(minutes: 1))
struct ChunkedBodyDecoderTests {
    private func decode(_ text: String) -> (status: ChunkedBodyDecoder.Status, decoder: ChunkedBodyDecoder, index: Int) {
        var decoder = ChunkedBodyDecoder()
        var index = 0
        let status = decoder.decode(Array(text.utf8), index: &index)
        return (status, decoder, index)
    }

    @Test("it decodes chunks with extensions and trailers and records their sizes")
    func decodesChunksWithExtensionsAndTrailers() {
        let wire = Array("5;ext=1\r\nhello\r\n1\r\n!\r\n0\r\nX-Trailer: t\r\n\r\nNEXT".utf8)
        var decoder = ChunkedBodyDecoder()
        var index = 0
        #expect(decoder.decode(wire, index: &index) == .done)
        #expect(String(decoding: decoder.body, as: UTF8.self) == "hello!")
        #expect(decoder.chunkSizes == [5, 1])
        #expect(Array(wire[index...]) == Array("NEXT".utf8))
    }

    @Test("it decodes input fed one byte at a time")
    func decodesInputFedOneByteAtATime() {
        let wire = Array("3\r\nabc\r\na\r\n0123456789\r\n0\r\n\r\n".utf8)
        var decoder = ChunkedBodyDecoder()
        var buffer: [UInt8] = []
        var index = 0
        var status = ChunkedBodyDecoder.Status.needMore
        for byte in wire {
            buffer.append(byte)
            status = decoder.decode(buffer, index: &index)
        }
        #expect(status == .done)
        #expect(String(decoding: decoder.body, as: UTF8.self) == "abc0123456789")
        #expect(index == wire.count)
    }

    @Test("a non-hexadecimal size is invalid")
    func nonHexadecimalSizeIsInvalid() {
        guard case .invalid = decode("zz\r\nabc\r\n").status else { Issue.record("not invalid"); return }
    }

    @Test("chunk data longer than its size is invalid")
    func chunkDataLongerThanItsSizeIsInvalid() {
        guard case .invalid = decode("2\r\nabc\r\n0\r\n\r\n").status else { Issue.record("not invalid"); return }
    }

    @Test(
        "a malformed chunk size is invalid, never a crash",
        arguments: [
            "-5\r\nabc\r\n",  // a sign: Int(_:radix:) accepts it
            "+5\r\nabcde\r\n",
            "-0\r\n\r\n",
            "\r\nabc\r\n",  // empty
            ";ext\r\nabc\r\n",  // an extension without a size
            "1000000000000000\r\n",  // more than 15 significant digits: would overflow
            "ffffffffffffffffffff\r\n",
            "0x5\r\nabcde\r\n",
            "5 garbage\r\nabcde\r\n",  // garbage where an extension belongs
            "5;\r\nabcde\r\n",  // an extension without a name
            "5;a b\r\nabcde\r\n",
            "5;a=\r\nabcde\r\n",
            "5;a=\"open\r\nabcde\r\n",
        ])
    func malformedSizeIsInvalid(wire: String) {
        guard case .invalid = decode(wire).status else { Issue.record("not invalid: \(decode(wire).status)"); return }
    }

    @Test(
        "well-formed sizes and extensions are accepted",
        arguments: [
            ("00000000000000000005\r\nabcde\r\n0\r\n\r\n", 5),  // leading zeros are not significant
            ("A\r\n0123456789\r\n0\r\n\r\n", 10),
            ("5 ;a=b ; c = \"d;e\"\r\nabcde\r\n0\r\n\r\n", 5),
            ("5;a\r\nabcde\r\n0;b=1\r\n\r\n", 5),
        ])
    func wellFormedSizesAreAccepted(wire: String, size: Int) {
        let result = decode(wire)
        #expect(result.status == .done)
        #expect(result.decoder.chunkSizes == [size])
    }

    @Test("a chunk that would cross the body limit is refused before its data is buffered")
    func chunkCrossingTheLimitIsTooLarge() {
        var decoder = ChunkedBodyDecoder(maximumBodySize: 8)
        var index = 0
        let wire = Array("5\r\nabcde\r\n4\r\nfghi\r\n0\r\n\r\n".utf8)
        #expect(decoder.decode(wire, index: &index) == .tooLarge)
        #expect(decoder.body == Array("abcde".utf8))
        #expect(decoder.chunkSizes == [5])
    }
}
