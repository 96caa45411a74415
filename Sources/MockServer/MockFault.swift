import Foundation

/// A misbehaviour of the connection: *what* the server does to it (an ``Effect``) and *when* (a ``Trigger``),
/// scoped to one scripted ``MockResponse``.
///
/// A fault never changes the bytes of a response; a response broken in its own shape carries a
/// ``MockResponse/Malformation`` instead, and the two compose (see ``MockResponse``).
///
/// Because a fault rides on the response it is attached to, "fail the second attempt" is two enqueued
/// responses, and "fail every connection" is a dispatcher that always returns the faulty response.
///
/// Write a fault from its two halves, or with one of the named shortcuts that cover the common pairs:
///
/// ```swift
/// MockResponse(fault: MockFault(.reset, .afterResponseBodyBytes(5)))
/// MockResponse(fault: .resetAfterBodyBytes(5))            // the same fault
/// MockResponse(fault: .closeAtAccept)                     // MockFault(.close, .atAccept)
/// ```
///
/// **Which response a fault is taken from.** Triggers before any request exists (``Trigger/atAccept``,
/// ``Trigger/afterClientHello``, ``Trigger/beforeRequest``) look at the **next scripted response** (the queue's
/// head, or ``MockDispatcher``'s `connectionFault` closure). If that response carries a fault with one of these
/// triggers, the connection consumes it and the fault fires; otherwise the response stays queued for a request.
/// On a plain-HTTP server the ClientHello trigger fires after the first bytes the client sends.
/// Request triggers (``Trigger/afterRequestHead``, ``Trigger/afterRequestBodyBytes(_:)``) fire while the request
/// the response answers is read; response triggers while it is written.
///
/// **Late faults.** A fault whose moment has passed when its response is used (a connection fault queued behind
/// another response on a reused connection, or any request fault returned by a dispatcher, which only runs once
/// the body was read) performs its effect at once, before the response: close, reset or stall with no reply.
/// One pair family has no meaning of its own: ``Effect/respond`` outside the request (see there).
///
/// "Stall" holds the connection open without sending anything until the client closes it or the server
/// shuts down; it never sleeps for a fixed time. "Reset" sends a TCP RST (`SO_LINGER {1, 0}` then `close`).
/// "Close" sends a FIN; over TLS it sends a `close_notify` alert first when it falls between two messages, and
/// none in the middle of one, as a crashed peer would.
public struct MockFault: Sendable, Hashable {
    /// What the server does.
    public let effect: Effect
    /// When it does it.
    public let trigger: Trigger

    /// Creates a fault from what happens and when.
    ///
    /// - Parameters:
    ///   - effect: What the server does.
    ///   - trigger: The moment it does it.
    public init(_ effect: Effect, _ trigger: Trigger) {
        self.effect = effect
        self.trigger = trigger
    }
}

extension MockFault: CustomStringConvertible {
    /// A stable name for reports: the shortcut's name (`closeAtAccept`, `closeAfterRequestBodyBytes(3)`) when
    /// the fault has one, else the effect followed by the trigger (`resetAfterRequestHead`).
    public var description: String {
        if let name = shortcutName { return name }
        let trigger = trigger.description
        return effect.description + trigger.prefix(1).uppercased() + trigger.dropFirst()
    }
}
