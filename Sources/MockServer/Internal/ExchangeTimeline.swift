/// When a scripted response's fault fires within one exchange (a request and its response, over HTTP/1.1 or on an
/// HTTP/2 stream). Decided here, once for both protocols, so that a trigger names the same moment over each: the
/// connection reports each moment it reaches, and carries out what fires.
struct ExchangeTimeline {
    /// The moments of an exchange, in the order they come.
    enum Moment: Equatable {
        /// The request head was read.
        case requestHead
        /// This many bytes of the request body were read so far; `ended` once it is whole.
        case requestBody(received: Int, ended: Bool)
        /// The response is about to be written.
        case responseStart
        /// The response was written, whole or as far as ``responseBodyLimit`` let it.
        case responseEnd
    }

    /// A fault that fires inside the request: the body bytes the request is recorded with, and why it is cut.
    struct RequestCut: Equatable {
        let fault: MockFault
        let keptBody: Int
        let failure: String
    }

    private(set) var fault: MockFault?
    private var hasFired = false

    init(fault: MockFault?) {
        self.fault = fault
    }

    /// The response the exchange answers with, scripted or from the dispatcher, which saw the whole request: its
    /// fault counts from now on, when the script had none (one a dispatcher returns for a moment already past fires
    /// at the response's start, in its place).
    mutating func answer(with response: MockResponse) {
        if fault == nil { fault = response.fault }
    }

    /// The fault that fires at `moment`, if one does; a fault fires at most once.
    mutating func reach(_ moment: Moment) -> MockFault? {
        guard !hasFired, let fault, Self.fires(fault, at: moment) else { return nil }
        hasFired = true
        return fault
    }

    /// The fault that cuts the request at `moment` (its head, or its body so far), if one does.
    mutating func cutRequest(at moment: Moment) -> RequestCut? {
        guard let fault = reach(moment) else { return nil }
        switch (fault.trigger.base, moment) {
        case (.afterRequestBodyBytes(let count), .requestBody(let received, _)):
            let kept = min(count, received)
            return RequestCut(fault: fault, keptBody: kept, failure: "server cut the request body after \(kept) bytes")
        default:
            return RequestCut(fault: fault, keptBody: 0, failure: "body not read (\(fault))")
        }
    }

    /// How many bytes of the response body go out before the fault cuts it; `nil` sends it all.
    var responseBodyLimit: Int? {
        if case .afterResponseBodyBytes(let count)? = fault?.trigger.base { return count }
        return nil
    }

    /// Whether a fault firing at the response's end cuts it in the middle (any trigger but `afterResponse`).
    var cutsResponse: Bool { fault?.trigger != .afterResponse }

    static func fires(_ fault: MockFault, at moment: Moment) -> Bool {
        switch (fault.trigger.base, moment) {
        case (.afterRequestHead, .requestHead):
            return true
        case (.afterRequestBodyBytes(let count), .requestBody(let received, let ended)):
            // A body that ends short of the count is cut at its end.
            return received >= count || ended
        case (_, .responseStart):
            // A request fault that `respond`s answers early, carried by the response it names; the rest end the exchange.
            return fault.trigger.precedesResponse && fault.effect.endsExchange
        case (_, .responseEnd):
            return !fault.trigger.precedesResponse && fault.effect.endsExchange
        default:
            return false
        }
    }
}
