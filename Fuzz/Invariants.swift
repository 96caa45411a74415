/// What any decoding must leave true, whatever the input: checked by both fuzz targets.
func checkInvariants(_ decoder: ChunkedBodyDecoder, status: ChunkedBodyDecoder.Status, index: Int, bytes: [UInt8]) {
    precondition(index >= 0 && index <= bytes.count, "index \(index) outside the input of \(bytes.count) bytes")
    precondition(decoder.body.count <= decoder.maximumBodySize, "body of \(decoder.body.count) bytes past the limit")
    precondition(decoder.chunkSizes.allSatisfy { $0 > 0 }, "a chunk size that is not positive: \(decoder.chunkSizes)")
    if status == .done {
        precondition(decoder.chunkSizes.reduce(0, +) == decoder.body.count, "chunk sizes do not add up to the body")
    }
}
