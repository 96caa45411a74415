internal import CCurl
internal import CShims
import Foundation

/// A libcurl easy handle and everything libcurl reads from it while a transfer runs (header and resolve
/// lists, the error buffer), freed together.
///
/// Every option goes through one checked setter: a refused option throws a ``CurlEdgeFailure`` naming it,
/// so no transfer starts with an option silently missing.
final class CurlEasy {

    let handle: UnsafeMutableRawPointer
    private let pool: CurlEasyPool
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// A handle from `pool`, with no option set but the error buffer.
    init(from pool: CurlEasyPool) throws(CurlEdgeFailure) {
        guard let handle = pool.take() else {
            errorBuffer.deallocate()
            throw CurlEdgeFailure(call: "curl_easy_init", code: 0, message: "no easy handle")
        }
        self.handle = handle
        self.pool = pool
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try set(CURLOPT_ERRORBUFFER, pointer: errorBuffer)
    }

    deinit {
        pool.give(handle)  // the reset drops the handle's pointers to the lists and the buffer before they go
        lists.forEach { curl_slist_free_all($0) }
        errorBuffer.deallocate()
    }

    /// libcurl's message for the transfer's failure: its error buffer, else the code's description.
    func message(for code: CURLcode) -> String {
        let buffered = String(cString: errorBuffer)
        return buffered.isEmpty ? String(cString: curl_easy_strerror(code)) : buffered
    }

    // MARK: Options

    func set(_ option: CURLoption, _ value: Int) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, offset: Int) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_off_t(handle, option, curl_off_t(offset)), option)
    }

    /// Sets a string option; libcurl copies it.
    func set(_ option: CURLoption, string: String) throws(CurlEdgeFailure) {
        try check(string.withCString { cshims_easy_setopt_ptr(handle, option, $0) }, option)
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_ptr(handle, option, pointer), option)
    }

    /// Sets a list option (`CURLOPT_HTTPHEADER`, `CURLOPT_RESOLVE`); the list lives as long as the handle.
    func set(_ option: CURLoption, list entries: [String]) throws(CurlEdgeFailure) {
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in entries {
            guard let longer = curl_slist_append(list, entry) else {
                curl_slist_free_all(list)
                throw CurlEdgeFailure(option: option, code: Int(CURLE_OUT_OF_MEMORY.rawValue))
            }
            list = longer
        }
        guard let list else { return }
        lists.append(list)
        try set(option, pointer: list)
    }

    func set(_ option: CURLoption, callback: curl_write_callback) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_write_function(handle, option, callback), option)
    }

    func setSSLContextFunction(_ callback: curl_ssl_ctx_callback) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_ssl_ctx_function(handle, callback), CURLOPT_SSL_CTX_FUNCTION)
    }

    func setSocketOptionFunction(_ callback: curl_sockopt_callback) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_sockopt_function(handle, callback), CURLOPT_SOCKOPTFUNCTION)
    }

    func setPreRequestFunction(_ callback: curl_prereq_callback) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_prereq_function(handle, callback), CURLOPT_PREREQFUNCTION)
    }

    func setProgressFunction(_ callback: curl_xferinfo_callback) throws(CurlEdgeFailure) {
        try check(cshims_easy_setopt_xferinfo_function(handle, callback), CURLOPT_XFERINFOFUNCTION)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlEdgeFailure) {
        guard code == CURLE_OK else { throw CurlEdgeFailure(option: option, code: Int(code.rawValue)) }
    }

    // MARK: Information

    /// A number libcurl knows about the transfer, or `nil` if it cannot say.
    func long(_ info: CURLINFO) -> Int? {
        var value = 0
        return cshims_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : nil
    }

    /// A size libcurl knows about the transfer (-1 when unknown), or `nil` if it cannot say.
    func offset(_ info: CURLINFO) -> Int? {
        var value: curl_off_t = -1
        return cshims_easy_getinfo_off_t(handle, info, &value) == CURLE_OK ? Int(value) : nil
    }

    /// A string libcurl knows about the transfer, or `nil`.
    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard cshims_easy_getinfo_ptr(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A pointer libcurl knows about the transfer, or `nil`.
    func pointer<T>(_ info: CURLINFO, as type: T.Type) -> UnsafeMutablePointer<T>? {
        var value: UnsafeMutablePointer<T>?
        return cshims_easy_getinfo_ptr(handle, info, &value) == CURLE_OK ? value : nil
    }
}
