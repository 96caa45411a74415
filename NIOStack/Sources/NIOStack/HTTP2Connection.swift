import NIOCore
import NIOHTTP2
import NetworkCore

/// A connection that speaks HTTP/2: fetches to its server share it, each on a stream of its own, while it is usable
/// (open, not failed, not retired: a `GOAWAY` retires it); the trust check of its handshake judges it again before
/// each stream.
final class HTTP2Connection: Sendable {
    let channel: any Channel
    /// Its streams, read on its event loop.
    let streams: NIOLoopBound<HTTP2Streams>
    /// The check that judged its server (`nil` for plain HTTP, which never speaks HTTP/2 here).
    let trust: HandshakeTrust?

    private struct State {
        /// The last-stream-id of the first `GOAWAY` received: streams above it were not processed.
        var goAwayLastStreamID: HTTP2StreamID?
        var openStreams = 0
        /// Left out of the pool: closed once its last stream ends.
        var isRetired = false
        /// The error that ended the connection itself, which its streams only see as a close.
        var failure: (any Error)?
    }

    private let state = Locked<State>(State())

    init(channel: any Channel, streams: HTTP2Streams, trust: HandshakeTrust?) {
        self.channel = channel
        self.streams = NIOLoopBound(streams, eventLoop: channel.eventLoop)
        self.trust = trust
        streams.connection = self
    }

    /// Resets a stream its exchange no longer wants, from any thread.
    func reset(_ stream: HTTP2StreamID) {
        let streams = self.streams
        channel.eventLoop.execute { streams.value.reset(stream) }
    }

    /// Whether a new stream may start on it.
    var isUsable: Bool {
        channel.isActive && state.withLock { !$0.isRetired && $0.failure == nil }
    }

    /// Whether a `GOAWAY` left the stream out: the server did not process it (RFC 9113 §6.8).
    func wasLeftOut(_ stream: HTTP2StreamID) -> Bool {
        state.withLock { state in state.goAwayLastStreamID.map { stream > $0 } ?? false }
    }

    /// Records a `GOAWAY`: no new stream starts on the connection, which closes once its open streams ended.
    func receivedGoAway(lastStreamID: HTTP2StreamID) {
        state.withLock { state in
            state.goAwayLastStreamID = min(state.goAwayLastStreamID ?? lastStreamID, lastStreamID)
        }
        retire()
    }

    /// The error that ended the connection, if one did.
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// Records the error that ends the connection; the first one counts.
    func failed(_ error: any Error) {
        state.withLock { state in state.failure = state.failure ?? error }
    }

    func streamOpened() {
        state.withLock { $0.openStreams += 1 }
    }

    func streamClosed() {
        let close = state.withLock { state -> Bool in
            state.openStreams -= 1
            return state.isRetired && state.openStreams == 0
        }
        if close { channel.close(promise: nil) }
    }

    /// Takes it out of service: it closes once its open streams ended, at once if it has none.
    func retire() {
        let close = state.withLock { state -> Bool in
            state.isRetired = true
            return state.openStreams == 0
        }
        if close { channel.close(promise: nil) }
    }
}
