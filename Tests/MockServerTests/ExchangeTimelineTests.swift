import Foundation
@testable import MockServer
import Testing

/// When a scripted fault fires within an exchange: one decision for HTTP/1.1 and HTTP/2.
@Suite("A fault fires at the moment its trigger names, once, whatever the protocol")
struct ExchangeTimelineTests {

    private typealias Moment = ExchangeTimeline.Moment

    /// Every moment of an exchange whose request body is `body` bytes long, in order, and the first one the fault fires at.
    private static func firstFiring(_ fault: MockFault, body: Int) -> Moment? {
        var timeline = ExchangeTimeline(fault: fault)
        let moments: [Moment] =
            [.requestHead] + (0...body).map { Moment.requestBody(received: $0, ended: $0 == body) } + [.responseStart, .responseEnd]
        return moments.first { timeline.reach($0) != nil }
    }

    @Test("each trigger fires at its own moment")
    func eachTriggerAtItsMoment() {
        #expect(Self.firstFiring(MockFault(.close, .afterRequestHead), body: 10) == .requestHead)
        #expect(Self.firstFiring(MockFault(.close, .afterRequestBodyBytes(4)), body: 10) == .requestBody(received: 4, ended: false))
        #expect(Self.firstFiring(MockFault(.close, .afterRequest), body: 10) == .responseStart)
        #expect(Self.firstFiring(MockFault(.close, .afterResponseBodyBytes(3)), body: 10) == .responseEnd)
        #expect(Self.firstFiring(MockFault(.close, .afterResponse), body: 10) == .responseEnd)
    }

    @Test("a body that ends short of the count is cut at its end, keeping what came")
    func shortBodyCutAtItsEnd() {
        var timeline = ExchangeTimeline(fault: MockFault(.close, .afterRequestBodyBytes(10)))
        #expect(timeline.cutRequest(at: .requestBody(received: 3, ended: false)) == nil)
        let cut = timeline.cutRequest(at: .requestBody(received: 3, ended: true))
        #expect(cut?.keptBody == 3)
        #expect(cut?.failure == "server cut the request body after 3 bytes")
    }

    @Test("a fault fires once: a later moment it would also fit finds it spent")
    func firesOnce() {
        var timeline = ExchangeTimeline(fault: MockFault(.close, .afterRequestHead))
        #expect(timeline.reach(.requestHead) != nil)
        #expect(timeline.reach(.responseStart) == nil)
    }

    @Test("respond before the response answers early at its moment and never in the response's place")
    func respondIsCarriedByTheResponse() {
        #expect(Self.firstFiring(MockFault(.respond, .afterRequestBodyBytes(2)), body: 4) == .requestBody(received: 2, ended: false))
        #expect(Self.firstFiring(MockFault(.respond, .afterRequest), body: 4) == nil)
    }

    @Test("a dispatcher's fault for a moment already past fires in the response's place")
    func lateDispatcherFault() {
        var timeline = ExchangeTimeline(fault: nil)
        #expect(timeline.reach(.requestHead) == nil)
        timeline.answer(with: MockResponse(fault: MockFault(.reset, .afterRequestHead)))
        #expect(timeline.reach(.responseStart)?.effect == .reset)
    }

    @Test("the response body goes out up to the count, and the fault then cuts it unless it waited for the end")
    func responseLimitAndCut() {
        let cutting = ExchangeTimeline(fault: MockFault(.close, .afterResponseBodyBytes(5)))
        #expect(cutting.responseBodyLimit == 5)
        #expect(cutting.cutsResponse)
        let whole = ExchangeTimeline(fault: MockFault(.close, .afterResponse))
        #expect(whole.responseBodyLimit == nil)
        #expect(!whole.cutsResponse)
    }
}
