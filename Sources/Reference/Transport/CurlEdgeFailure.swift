internal import CCurl
internal import CShims
import Foundation
import NetworkCore

/// A libcurl call that failed at the edge of the transport: which call or option, and libcurl's code.
struct CurlEdgeFailure: Error {
    let call: String
    let code: Int
    let message: String

    init(call: String, code: Int, message: String) {
        self.call = call
        self.code = code
        self.message = message
    }

    /// A refused option, named as libcurl names it (`URL`, `HTTPHEADER`, …).
    init(option: CURLoption, code: Int) {
        let name = curl_easy_option_by_id(option).flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "option \(option.rawValue)"
        self.init(
            call: "curl_easy_setopt(CURLOPT_\(name))", code: code, message: String(cString: curl_easy_strerror(CURLcode(UInt32(code)))))
    }

    var transportFailure: TransportFailure {
        TransportFailure(library: "libcurl", code: code, message: "\(call) failed: \(message)")
    }
}
