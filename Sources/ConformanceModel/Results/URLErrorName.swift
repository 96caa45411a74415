import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// How reports show a `URLError` code: `-1202` reads `serverCertificateUntrusted (-1202)`.
package enum URLErrorName {
    package static func describe(_ code: Int) -> String {
        guard let name = URLError.Code(rawValue: code)?.name, name != "\(code)" else { return "code (\(code))" }
        return "\(name) (\(code))"
    }
}
