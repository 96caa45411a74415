import Foundation
import Testing

/// How much slower than usual the tests may run: `TEST_TIME_LIMIT_SCALE`, 1 when the environment does not set it.
///
/// `Scripts/test` sets 2: on a loaded 2-core machine the tests' TLS servers and clients, which all decode keys
/// through OpenSSL 3 (one global lock), stalled a run past a minute at times. `Scripts/sanitize` sets 6: under
/// ThreadSanitizer or AddressSanitizer every test runs several times slower.
public enum TestTimeScale {
    /// The factor, at least 1.
    public static let factor: Int = max(1, ProcessInfo.processInfo.environment["TEST_TIME_LIMIT_SCALE"].flatMap(Int.init) ?? 1)

    /// `bound` scaled by ``factor``, but never `ceiling` or more: a test that measures how long something took
    /// keeps telling the behaviour it checks (which costs `ceiling` or more) from a slow run of the right one.
    public static func bound(_ bound: Duration, below ceiling: Duration) -> Duration {
        min(bound * factor, ceiling - .milliseconds(500))
    }
}

extension Trait where Self == TimeLimitTrait {
    /// A time limit of `minutes`, times ``TestTimeScale/factor``.
    ///
    /// A limit catches a hang, not slowness.
    public static func scaledTimeLimit(minutes: Int) -> Self {
        .timeLimit(.minutes(minutes * TestTimeScale.factor))
    }
}
