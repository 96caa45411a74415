import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    static var violations: [ConformanceCase] {
        let violations: [(HTTP2Violation, String)] = [
            (.invalidSetting, "a SETTINGS frame with SETTINGS_ENABLE_PUSH = 2"),
            (.hpackError, "response HEADERS that refer to HPACK index 0"),
            (.pushPromise, "a PUSH_PROMISE to a client that disabled push"),
            (.dataBeforeHeaders, "DATA on the request's stream before any HEADERS"),
            (.windowOverflow, "a WINDOW_UPDATE that takes the client's window past 2^31-1"),
        ]
        return violations.map { violation, what in
            ConformanceCase(
                id: "http2.violation.\(kebab(violation.description))", title: "\(what): url(networkConnectionLost), never a hang",
                rules: ["ERR-21"],
                explanation:
                    "The server answers the request with \(what), a connection error the client must refuse (RFC 9113), then keeps the connection open. The fetch fails at once with networkConnectionLost.",
                requires: [.http2], server: h2(MockResponse(fault: MockFault(.http2Violation(violation), .afterRequest))),
                resource: ResourceSpec().with { $0.timeout = 5 },
                expected: Expectation(url(.networkConnectionLost)))
        }
    }

    static var hostilePeers: [ConformanceCase] {
        let refusals: [URLError.Code] = [.networkConnectionLost, .badServerResponse]
        let floods: [(id: String, what: String, response: MockResponse, codes: [URLError.Code])] = [
            (
                "one-huge-field", "a response head with one 300 000-byte field",
                MockResponse(headers: [("X-Huge", String(repeating: "a", count: 300_000))], body: Data("x".utf8)), refusals
            ),
            (
                "head-past-limits", "a response head of 5 000 fields, 300 KB in all",
                MockResponse(headers: (0..<5000).map { ("X-Field-\($0)", String(repeating: "a", count: 48)) }, body: Data("x".utf8)),
                refusals
            ),
            (
                "continuation-flood", "response HEADERS followed by 20 000 CONTINUATION frames that never end the block",
                MockResponse(fault: MockFault(.http2Violation(.continuationFlood), .afterRequest)), refusals
            ),
            (
                "ping-flood", "50 000 PING frames and then silence",
                MockResponse(fault: MockFault(.http2Violation(.pingFlood), .afterRequest)), [.timedOut, .networkConnectionLost]
            ),
            (
                "settings-flood", "50 000 SETTINGS frames and then silence",
                MockResponse(fault: MockFault(.http2Violation(.settingsFlood), .afterRequest)), [.timedOut, .networkConnectionLost]
            ),
            (
                "table-size-overflow", "an HPACK table size update to 1 000 000 bytes, past the 4 096 the client allowed",
                MockResponse(fault: MockFault(.http2Violation(.tableSizeOverflow), .afterRequest)), refusals
            ),
            (
                "reset-storm", "1 000 RST_STREAM frames for streams the client never opened",
                MockResponse(fault: MockFault(.http2Violation(.resetStorm), .afterRequest)), [.networkConnectionLost]
            ),
            (
                "headers-never-end", "response HEADERS that never end, and then silence",
                MockResponse(fault: MockFault(.http2Violation(.headersNeverEnd), .afterRequest)), [.timedOut]
            ),
            (
                "goaway-storm", "1 000 GOAWAY frames of 1 KB each and then silence",
                MockResponse(fault: MockFault(.http2Violation(.goAwayStorm), .afterRequest)), [.timedOut, .networkConnectionLost]
            ),
        ]
        return floods.map { flood in
            var outcome = url(flood.codes[0])
            outcome.alsoAcceptedURLErrorCodes = flood.codes.dropFirst().map(\.rawValue)
            let codes = flood.codes.map { URLErrorName.describe($0.rawValue) }.joined(separator: " or ")
            return ConformanceCase(
                id: "hostile.h2.\(flood.id)", title: "\(flood.what): url(\(codes)), never a crash or a hang", rules: ["ERR-22"],
                explanation:
                    "The server answers with \(flood.what). The stack stays within its limits and fails the fetch with \(codes) within the request's one-second timeout.",
                requires: [.http2], server: h2(flood.response), resource: ResourceSpec().with { $0.timeout = 1 },
                expected: Expectation(outcome))
        } + [continuationTrickle]
    }

    /// The slow form of the CONTINUATION flood: nothing is large and nothing is late, so only the whole attempt's limit
    /// (ERR-18), or a bound on the frames of one header block, stops it.
    private static var continuationTrickle: ConformanceCase {
        var outcome = url(.timedOut)
        outcome.alsoAcceptedURLErrorCodes = [URLError.Code.networkConnectionLost.rawValue]
        return ConformanceCase(
            id: "hostile.h2.continuation-trickle",
            title:
                "a header block trickled one CONTINUATION frame every 25 ms: url(timedOut or networkConnectionLost) within the per-attempt limit",
            rules: ["ERR-22", "ERR-18"],
            explanation:
                "The server answers with HEADERS that do not end the block, then one CONTINUATION frame of one small field every 25 ms, 400 of them, never ending it: no silence reaches the request's 5-second idle timeout and the block stays far under any header limit. The stack is given a resource timeout of 0.5 s, which fails the fetch with url(timedOut); a stack whose HTTP/2 layer bounds the CONTINUATION frames of one block (nghttp2 has since 2024) refuses the connection first, networkConnectionLost. A stack with neither bound waits for the whole trickle, 10 s.",
            requires: [.http2], server: h2(MockResponse(fault: MockFault(.http2Violation(.continuationTrickle), .afterRequest))),
            stack: StackSetup(resourceTimeout: 0.5), resource: ResourceSpec().with { $0.timeout = 5 },
            expected: Expectation(outcome, journal: .requests(1)))
    }

    /// `invalidSetting` as `invalid-setting`.
    private static func kebab(_ name: String) -> String {
        name.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
    }
}
