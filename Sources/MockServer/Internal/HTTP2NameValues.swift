internal import CNghttp2

extension HTTP2Session {
    /// Lends nghttp2 the fields as `nghttp2_nv`s for one call; nghttp2 copies them.
    static func withFields(_ fields: [(name: String, value: String)], _ body: (UnsafePointer<nghttp2_nv>?, Int) -> Void) {
        var storage: [UnsafeMutablePointer<UInt8>] = []
        defer { storage.forEach { $0.deallocate() } }
        func copy(_ text: String) -> (UnsafeMutablePointer<UInt8>, Int) {
            let bytes = Array(text.utf8)
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
            pointer.initialize(from: bytes, count: bytes.count)
            storage.append(pointer)
            return (pointer, bytes.count)
        }
        let nva = fields.map { field -> nghttp2_nv in
            let (name, nameLength) = copy(field.name)
            let (value, valueLength) = copy(field.value)
            return nghttp2_nv(
                name: name, value: value, namelen: nameLength, valuelen: valueLength, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
        }
        nva.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}
