@testable import MockServer
import XCTest

final class ChunkedBodyDecoderTests: XCTestCase {
    func testDecodesChunksWithExtensionsAndTrailersAndRecordsSizes() {
        let wire = Array("5;ext=1\r\nhello\r\n1\r\n!\r\n0\r\nX-Trailer: t\r\n\r\nNEXT".utf8)
        var decoder = ChunkedBodyDecoder()
        var index = 0
        XCTAssertEqual(decoder.decode(wire, index: &index), .done)
        XCTAssertEqual(String(decoding: decoder.body, as: UTF8.self), "hello!")
        XCTAssertEqual(decoder.chunkSizes, [5, 1])
        XCTAssertEqual(Array(wire[index...]), Array("NEXT".utf8))
    }

    func testDecodesInputFedOneByteAtATime() {
        let wire = Array("3\r\nabc\r\na\r\n0123456789\r\n0\r\n\r\n".utf8)
        var decoder = ChunkedBodyDecoder()
        var buffer: [UInt8] = []
        var index = 0
        var status = ChunkedBodyDecoder.Status.needMore
        for byte in wire {
            buffer.append(byte)
            status = decoder.decode(buffer, index: &index)
        }
        XCTAssertEqual(status, .done)
        XCTAssertEqual(String(decoding: decoder.body, as: UTF8.self), "abc0123456789")
        XCTAssertEqual(index, wire.count)
    }

    func testANonHexadecimalSizeIsInvalid() {
        var decoder = ChunkedBodyDecoder()
        var index = 0
        guard case .invalid = decoder.decode(Array("zz\r\nabc\r\n".utf8), index: &index) else { return XCTFail() }
    }

    func testChunkDataLongerThanItsSizeIsInvalid() {
        var decoder = ChunkedBodyDecoder()
        var index = 0
        guard case .invalid = decoder.decode(Array("2\r\nabc\r\n0\r\n\r\n".utf8), index: &index) else { return XCTFail() }
    }
}
